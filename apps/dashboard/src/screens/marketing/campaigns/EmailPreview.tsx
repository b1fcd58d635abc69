/**
 * The campaign as recipients get it: the server renders the unsaved fields in the site's design
 * (POST …/campaigns/preview) a moment after the last change, shown in a sandboxed frame at desktop
 * or phone width (no script runs in it). Blocks not filled in yet (no image or product chosen) are left out.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { post } from "../../../api.js";
import { DeviceToggle } from "../../../components/DeviceToggle.js";
import { ErrorNotice, useSiteId } from "../../../components/ui.js";
import { type CampaignBlock, type CampaignFields, campaignsUrl } from "./model.js";

function complete(b: CampaignBlock): boolean {
  switch (b.type) {
    case "image":
      return Boolean(b.mediaId);
    case "button":
      return Boolean(b.text.trim() && b.url.trim());
    case "product":
      return Boolean(b.productId);
    case "products":
      return b.productIds.length > 0;
    default:
      return true;
  }
}

/** `value`, once it has stayed the same for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function EmailPreview({ fields }: { fields: CampaignFields }) {
  const siteId = useSiteId();
  const [device, setDevice] = useState<"desktop" | "phone">("desktop");
  const body = JSON.stringify({
    subject: fields.subject,
    previewText: fields.previewText,
    blocks: fields.blocks.filter(complete),
  });
  const settled = useSettled(body, 400);
  const preview = useQuery({
    queryKey: ["campaign-preview", siteId, settled],
    queryFn: () =>
      post<{ html: string; text: string }>(`${campaignsUrl(siteId)}/preview`, JSON.parse(settled)),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  return (
    <section className="campaign-preview" aria-labelledby="campaign-preview-title">
      <div className="campaign-preview-bar">
        <h2 id="campaign-preview-title">Preview</h2>
        <span className="muted small">
          {preview.isFetching || settled !== body ? "Updating…" : "As your subscribers will see it"}
        </span>
        <span style={{ flex: 1 }} />
        <DeviceToggle device={device} setDevice={setDevice} />
      </div>
      <ErrorNotice error={preview.error} />
      <div className="campaign-preview-canvas">
        <div className="campaign-preview-inbox" style={{ width: device === "phone" ? 432 : "100%" }}>
          <div className="campaign-preview-subject">
            <strong>{fields.subject || "(no subject)"}</strong>
            {fields.previewText ? <span className="muted"> — {fields.previewText}</span> : null}
          </div>
          <iframe
            title="Email preview"
            // Never scripts (the email has none); the site's own origin, so its images load under the dashboard's CSP.
            sandbox="allow-same-origin"
            srcDoc={preview.data?.html ?? ""}
            className={device === "phone" ? "phone" : undefined}
          />
        </div>
      </div>
    </section>
  );
}
