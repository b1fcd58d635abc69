/** Where each block of the page sits in the editing frame, measured from the frame's document. */
export interface Rect {
  top: number;
  left: number;
  width: number;
  height: number;
}

/** Where each block is in the frame: by `data-block-id`, or by the element whose id is the block's. */
export function measureFrame(
  frame: HTMLIFrameElement | null,
  blockIds: string[],
): { height: number; rects: Map<string, Rect> } | undefined {
  const doc = frame?.contentDocument;
  // While the frame reloads its document is a new, half-built one: keep the last geometry until
  // it has loaded, or the overlays (and a drag that holds one) would vanish for a moment.
  if (!doc?.body || doc.readyState !== "complete") return undefined;
  const rects = new Map<string, Rect>();
  const win = doc.defaultView;
  const sx = win?.scrollX ?? 0;
  const sy = win?.scrollY ?? 0;
  for (const id of blockIds) {
    const el =
      doc.querySelector<HTMLElement>(`[data-block-id="${CSS.escape(id)}"]`) ?? doc.getElementById(id);
    if (!el) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    rects.set(id, { top: r.top + sy, left: r.left + sx, width: r.width, height: Math.max(r.height, 24) });
  }
  const height = Math.max(doc.documentElement.scrollHeight, doc.body.scrollHeight, 400);
  return { height: Math.min(height, 30000), rects };
}
