import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { type MediaItem, patch } from "../api.js";
import { MediaGrid, UploadButton, useMedia } from "../components/media.js";
import { Can, useCan } from "../components/permissions.js";
import { ActionDialog, ErrorNotice, Notice, PageHead, useSiteId } from "../components/ui.js";
import { TextField } from "../components/form/index.js";

/** The media library: every uploaded image, upload, title and focal point. */
export function MediaLibrary() {
  const media = useMedia();
  const [open, setOpen] = useState<MediaItem | undefined>();
  const [uploaded, setUploaded] = useState<string | undefined>();
  const mayEdit = useCan().can("content.write");
  return (
    <>
      <PageHead
        title="Media library"
        sub="Images for pages, products and posts. Sizes for every screen are made for you."
        actions={
          <Can permission="content.write">
            <UploadButton onUploaded={(m) => setUploaded(m.title || m.filename)} />
          </Can>
        }
      />
      {uploaded ? <Notice kind="ok">Uploaded {uploaded}.</Notice> : null}
      <MediaGrid
        media={media}
        empty="No images yet."
        tile={(m) =>
          mayEdit ? { onClick: () => setOpen(m), "aria-label": `Edit ${m.title || m.filename}` } : {}
        }
      />
      {open ? <MediaDetails item={open} onClose={() => setOpen(undefined)} /> : null}
    </>
  );
}

function MediaDetails({ item, onClose }: { item: MediaItem; onClose: () => void }) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(item.title);
  const [focal, setFocal] = useState(item.mediaFocalPoint ?? { x: 0.5, y: 0.5 });
  const save = useMutation({
    mutationFn: () =>
      patch(`/api/owner/websites/${siteId}/media/${item.id}`, { title, mediaFocalPoint: focal }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["media", siteId] });
      onClose();
    },
  });
  return (
    <ActionDialog
      title={item.title || item.filename}
      onClose={onClose}
      action="Save image"
      onAction={() => save.mutate()}
      disabled={save.isPending}
    >
      <ErrorNotice error={save.error} />
      <p className="muted small">Click the picture to set its focal point: crops keep it in view.</p>
      <button
        type="button"
        aria-label="Set the focal point"
        style={{
          position: "relative",
          padding: 0,
          border: 0,
          background: "none",
          cursor: "crosshair",
          display: "block",
          width: "100%",
        }}
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          setFocal({
            x: Math.round(((e.clientX - r.left) / r.width) * 100) / 100,
            y: Math.round(((e.clientY - r.top) / r.height) * 100) / 100,
          });
        }}
      >
        <img
          src={`${item.assetUrl}?format=750w`}
          alt=""
          style={{ width: "100%", borderRadius: 8, display: "block" }}
        />
        <span
          aria-hidden="true"
          style={{
            position: "absolute",
            left: `${focal.x * 100}%`,
            top: `${focal.y * 100}%`,
            width: 22,
            height: 22,
            marginLeft: -11,
            marginTop: -11,
            borderRadius: "50%",
            border: "3px solid #fff",
            boxShadow: "0 0 0 2px #1f4fd8",
          }}
        />
      </button>
      <p className="small muted">
        Focal point {focal.x.toFixed(2)}, {focal.y.toFixed(2)} · {item.originalSize} · {item.contentType}
      </p>
      <TextField label="Title" value={title} onChange={(v) => setTitle(v)} />
    </ActionDialog>
  );
}
