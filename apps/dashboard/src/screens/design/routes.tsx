/** The Design group's screens. Custom CSS is loaded on demand: CodeMirror is only needed there. */
import { Suspense, lazy } from "react";
import { Loading } from "../../components/ui.js";
import { SiteIdentity } from "./SiteIdentity.js";
import { Styles } from "./Styles.js";
import { Themes } from "./Themes.js";
import { Reopenable } from "./DesignHistory.js";

const CustomCss = lazy(() => import("./CustomCss.js").then((m) => ({ default: m.CustomCss })));

export const designRoutes = [
  {
    path: "sites/:siteId/design/styles",
    element: (
      <Reopenable>
        <Styles />
      </Reopenable>
    ),
  },
  {
    path: "sites/:siteId/design/themes",
    element: (
      <Reopenable>
        <Themes />
      </Reopenable>
    ),
  },
  {
    path: "sites/:siteId/design/identity",
    element: (
      <Reopenable>
        <SiteIdentity />
      </Reopenable>
    ),
  },
  {
    path: "sites/:siteId/design/css",
    element: (
      <Suspense fallback={<Loading what="Opening the editor" />}>
        <Reopenable>
          <CustomCss />
        </Reopenable>
      </Suspense>
    ),
  },
];
