/**
 * Island `account`: the site user's pages (SPEC §6, §7 site-user calls), one island for every
 * path under /account: sign in, register, forgotten and new password, the account overview,
 * orders and addresses. Props: { view?, token? }; without a view the path decides.
 */
import { ForgotPassword, Register, ResetPassword, SignIn } from "./auth.js";
import { Account } from "./signed-in.js";
import type { View } from "./types.js";
import "./account.css";

export type { View } from "./types.js";

const VIEWS: Record<string, View> = {
  "/account": "overview",
  "/account/login": "login",
  "/account/register": "register",
  "/account/forgot-password": "forgot-password",
  "/account/reset-password": "reset-password",
  "/account/orders": "orders",
  "/account/addresses": "addresses",
};

export function viewOf(path: string): View {
  return VIEWS[path.replace(/\/+$/, "") || "/account"] ?? "overview";
}

export interface AccountProps {
  view?: View;
  token?: string;
}

export default function AccountIsland(props: AccountProps) {
  const view = props.view ?? viewOf(window.location.pathname);
  switch (view) {
    case "login":
      return <SignIn />;
    case "register":
      return <Register />;
    case "forgot-password":
      return <ForgotPassword />;
    case "reset-password":
      return (
        <ResetPassword
          token={props.token ?? new URLSearchParams(window.location.search).get("token") ?? ""}
        />
      );
    default:
      return <Account view={view} />;
  }
}
