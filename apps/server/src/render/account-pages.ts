/**
 * Site-user account pages (our design; SPEC §6, §7 site-user calls): every path under /account
 * is a system page handing over to the `account` island, which picks its view from the path.
 */

/** Path under the site → page title and the account island's view. */
const ACCOUNT_PAGES: Readonly<Record<string, { title: string; view: string; message: string }>> = {
  account: { title: "My account", view: "overview", message: "" },
  "account/orders": { title: "Orders", view: "orders", message: "" },
  "account/addresses": { title: "Addresses", view: "addresses", message: "" },
  "account/login": { title: "Sign in", view: "login", message: "Sign in to see your orders and addresses." },
  "account/register": {
    title: "Create an account",
    view: "register",
    message: "Keep your orders and addresses in one place.",
  },
  "account/forgot-password": { title: "Reset your password", view: "forgot-password", message: "" },
  "account/reset-password": { title: "Choose a new password", view: "reset-password", message: "" },
};

/** The page context additions of an account page, or undefined when the path is not one. */
export function accountPage(segments: readonly string[]): Record<string, unknown> | undefined {
  const page = ACCOUNT_PAGES[segments.join("/")];
  if (!page) return undefined;
  return {
    pageTitle: page.title,
    systemPage: { title: page.title, message: page.message, island: "account", props: { view: page.view } },
  };
}
