/**
 * A template's version shown on the site: the version's source becomes this owner's unsaved edit
 * of the template (seen only in their editing frame, as the template editor's Preview does), the
 * frame shows a page with it, and leaving the preview drops that edit again.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { del, put } from "../../api.js";
import { ErrorNotice, Loading } from "../ui.js";

export function TemplateVersionFrame({
  siteId,
  name,
  source,
}: {
  siteId: string;
  name: string;
  /** The version's source; undefined when the version was the theme's own. */
  source: string | undefined;
}) {
  const url = `/api/owner/sites/${siteId}/templates/${name}/draft`;
  const ready = useQuery({
    queryKey: ["template-version-frame", siteId, name, source ?? ""],
    queryFn: async () => {
      await put(`/api/owner/sites/${siteId}/editing-mode`, { preview: true });
      if (source === undefined) await del(url).catch(() => {});
      else await put(url, { source });
      return Date.now();
    },
    staleTime: 0,
    gcTime: 0,
  });
  useEffect(() => () => void del(url).catch(() => {}), [url]);
  if (ready.isLoading) return <Loading what="Showing the version on your site" />;
  if (ready.error) return <ErrorNotice error={ready.error} />;
  return (
    <iframe
      key={ready.data}
      title={`The site with this version of ${name}`}
      src={`/config/frame/${siteId}/`}
      onLoad={(e) => {
        // The footer is at the end of every page: show it.
        if (name === "footer") {
          const w = e.currentTarget.contentWindow;
          w?.scrollTo(0, w.document.documentElement.scrollHeight);
        }
      }}
    />
  );
}
