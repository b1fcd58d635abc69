/** The Design group's screens. Custom CSS is loaded on demand: CodeMirror is only needed there. */
import { Suspense, lazy } from "react";
import { Loading } from "../../components/ui.js";
import { SiteIdentity } from "./SiteIdentity.js";
import { Styles } from "./Styles.js";
import { Themes } from "./Themes.js";

const CustomCss = lazy(() => import("./CustomCss.js").then((m) => ({ default: m.CustomCss })));

export const designRoutes = [
  { path: "sites/:siteId/design/styles", element: <Styles /> },
  { path: "sites/:siteId/design/themes", element: <Themes /> },
  { path: "sites/:siteId/design/identity", element: <SiteIdentity /> },
  {
    path: "sites/:siteId/design/css",
    element: (
      <Suspense fallback={<Loading what="Opening the editor" />}>
        <CustomCss />
      </Suspense>
    ),
  },
];
