import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode, Suspense, lazy } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider, createBrowserRouter } from "react-router";
import { ApiError, setUnauthorizedHandler } from "./api.js";
import { Shell } from "./components/Shell.js";
import { ApiKeys } from "./screens/ApiKeys.js";
import { Webhooks } from "./screens/Webhooks.js";
import { AbandonedCheckouts } from "./screens/marketing/AbandonedCheckouts.js";
import { SitePopups } from "./screens/marketing/SitePopups.js";
import { CampaignEdit } from "./screens/marketing/campaigns/CampaignEdit.js";
import { CampaignReportScreen } from "./screens/marketing/campaigns/CampaignReportScreen.js";
import { Campaigns } from "./screens/marketing/campaigns/Campaigns.js";
import { MarketingDiscounts } from "./screens/marketing/Discounts.js";
import { designRoutes } from "./screens/design/routes.js";
import { Billing } from "./screens/Billing.js";
import { CollectionItems, ItemEditor } from "./screens/Collections.js";
import { Forms } from "./screens/Forms.js";
import { Inventory } from "./screens/Inventory.js";
import { Login } from "./screens/Login.js";
import { Account } from "./screens/account/Account.js";
import { AcceptInvitation } from "./screens/account/AcceptInvitation.js";
import { ConfirmEmail, ForgotPassword, ResetPassword } from "./screens/account/EmailedLinks.js";
import { MediaLibrary } from "./screens/Media.js";
import { Operations } from "./screens/Operations.js";
import { PageSettings } from "./screens/PageSettings.js";
import { Activity } from "./screens/Activity.js";
import { Pages } from "./screens/Pages.js";
import { Products } from "./screens/Products.js";
import { ProductEditor } from "./screens/products/ProductEditor.js";
import { SiteHome } from "./screens/SiteHome.js";
import { Domains } from "./screens/Domains.js";
import { SiteSettings } from "./screens/SiteSettings.js";
import { SiteExport } from "./screens/SiteExport.js";
import { Permissions } from "./screens/settings/Permissions.js";
import { Trash } from "./screens/settings/Trash.js";
import { UrlMappings } from "./screens/UrlMappings.js";
import { Sites } from "./screens/Sites.js";
import { StoreSettings } from "./screens/StoreSettings.js";
import "./styles.css";

const PageEditor = lazy(() => import("./editor/PageEditor.js").then((m) => ({ default: m.PageEditor })));
const Analytics = lazy(() =>
  import("./screens/analytics/Analytics.js").then((m) => ({ default: m.Analytics })),
);
const analytics = (
  <Suspense fallback={<p className="muted">Opening analytics…</p>}>
    <Analytics />
  </Suspense>
);
const Templates = lazy(() => import("./screens/design/Templates.js").then((m) => ({ default: m.Templates })));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
  },
});

const router = createBrowserRouter(
  [
    { path: "/login", element: <Login /> },
    { path: "/forgot-password", element: <ForgotPassword /> },
    { path: "/reset-password", element: <ResetPassword /> },
    { path: "/confirm-email", element: <ConfirmEmail /> },
    { path: "/invitations/accept", element: <AcceptInvitation /> },
    {
      path: "/sites/:siteId/pages/:pageId/edit",
      element: (
        <Suspense
          fallback={
            <p className="muted" style={{ padding: "2rem" }}>
              Opening the editor…
            </p>
          }
        >
          <PageEditor />
        </Suspense>
      ),
    },
    {
      path: "/",
      element: <Shell />,
      children: [
        { index: true, element: <Sites /> },
        { path: "account", element: <Account /> },
        { path: "sites/:siteId", element: <SiteHome /> },
        { path: "sites/:siteId/analytics", element: analytics },
        { path: "sites/:siteId/analytics/:tab", element: analytics },
        { path: "sites/:siteId/pages", element: <Pages /> },
        { path: "sites/:siteId/pages/:pageId", element: <PageSettings /> },
        { path: "sites/:siteId/collections/:pageId", element: <CollectionItems /> },
        { path: "sites/:siteId/collections/:pageId/items/:itemId", element: <ItemEditor /> },
        { path: "sites/:siteId/products", element: <Products /> },
        { path: "sites/:siteId/products/:productId", element: <ProductEditor /> },
        { path: "sites/:siteId/inventory", element: <Inventory /> },
        { path: "sites/:siteId/media", element: <MediaLibrary /> },
        { path: "sites/:siteId/store", element: <StoreSettings /> },
        { path: "sites/:siteId/store/:tab", element: <StoreSettings /> },
        { path: "sites/:siteId/settings", element: <SiteSettings /> },
        { path: "sites/:siteId/settings/billing", element: <Billing /> },
        { path: "sites/:siteId/settings/url-mappings", element: <UrlMappings /> },
        { path: "sites/:siteId/settings/domains", element: <Domains /> },
        { path: "sites/:siteId/settings/export", element: <SiteExport /> },
        { path: "sites/:siteId/settings/permissions", element: <Permissions /> },
        { path: "sites/:siteId/settings/billing/billing/upgrade", element: <Billing /> },
        { path: "sites/:siteId/settings/billing/billing/website/change-plan", element: <Billing /> },
        { path: "sites/:siteId/api-keys", element: <ApiKeys /> },
        { path: "sites/:siteId/settings/activity", element: <Activity /> },
        { path: "sites/:siteId/settings/trash", element: <Trash /> },
        { path: "sites/:siteId/settings/developers/webhooks", element: <Webhooks /> },
        { path: "sites/:siteId/marketing/abandoned-checkouts", element: <AbandonedCheckouts /> },
        { path: "sites/:siteId/marketing/announcements", element: <SitePopups /> },
        { path: "sites/:siteId/marketing/campaigns", element: <Campaigns /> },
        { path: "sites/:siteId/marketing/campaigns/:campaignId", element: <CampaignEdit /> },
        { path: "sites/:siteId/marketing/campaigns/:campaignId/report", element: <CampaignReportScreen /> },
        { path: "sites/:siteId/marketing/discounts", element: <MarketingDiscounts /> },
        { path: "sites/:siteId/marketing/discounts/:tab", element: <MarketingDiscounts /> },
        {
          path: "sites/:siteId/design/templates",
          element: (
            <Suspense fallback={<p className="muted">Opening the templates…</p>}>
              <Templates />
            </Suspense>
          ),
        },
        { path: "sites/:siteId/forms", element: <Forms /> },
        { path: "sites/:siteId/forms/:formId", element: <Forms /> },
        { path: "sites/:siteId/ops/:area", element: <Operations /> },
        { path: "sites/:siteId/ops/:area/:id", element: <Operations /> },
        ...designRoutes,
      ],
    },
  ],
  { basename: "/config" },
);

setUnauthorizedHandler(() => {
  queryClient.clear();
  if (!location.pathname.startsWith("/config/login")) {
    const next = location.pathname.replace(/^\/config/, "") + location.search;
    void router.navigate(`/login?next=${encodeURIComponent(next || "/")}`);
  }
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
