/** The site in a frame (the editor's same-origin frame) showing unsaved CSS as soon as it changes. */
import { useCallback, useEffect, useRef, useState } from "react";
import { disableInFrame, showInFrame } from "./preview-css.js";
import { DeviceToggle } from "../../components/DeviceToggle.js";

export function PreviewFrame({
  siteId,
  css,
  replaces = [],
  title = "Site preview",
}: {
  siteId: string;
  css: Record<string, string>;
  /** Selectors of the page's saved sheets that the preview CSS stands in for. */
  replaces?: string[];
  title?: string;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [device, setDevice] = useState<"desktop" | "phone">("desktop");
  const replaced = replaces.join(",");
  const apply = useCallback(() => {
    if (replaced) disableInFrame(frame.current, replaced.split(","));
    for (const [key, text] of Object.entries(css)) showInFrame(frame.current, key, text);
  }, [css, replaced]);
  useEffect(apply, [apply]);
  return (
    <div className="design-preview">
      <div className="design-preview-bar">
        <span className="muted small">Preview, unsaved changes included</span>
        <span style={{ flex: 1 }} />
        <DeviceToggle device={device} setDevice={setDevice} />
      </div>
      <div className="design-preview-canvas">
        <iframe
          ref={frame}
          title={title}
          src={`/config/frame/${siteId}/`}
          onLoad={apply}
          style={{ width: device === "phone" ? 432 : "100%" }}
        />
      </div>
    </div>
  );
}
