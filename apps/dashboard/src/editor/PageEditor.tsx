/**
 * The visual page editor: the real page, rendered by the server from the autosaved draft, in an
 * editing frame with block overlays. Select a block to edit its fields, double-click text to edit
 * it in place, drag a block's handle to reorder it or move it into another row or column, add
 * blocks from the picker, undo and redo, and Publish.
 */
import {
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  type DragMoveEvent,
  DragOverlay,
  type DragStartEvent,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import {
  type Block,
  type BlockType,
  type Layout,
  type LayoutAnswer,
  type Site,
  get,
  post,
  put,
} from "../api.js";
import { RichTextEditor } from "../components/RichText.js";
import { FieldList } from "../components/fields.js";
import { inOrder } from "./in-order.js";
import { CartPillZones } from "./CartPillZones.js";
import { Modal, Notice } from "../components/ui.js";
import { errorText } from "../components/form/index.js";
import {
  BLOCK_LIMIT_MESSAGE,
  MAX_BLOCKS,
  type Target,
  allBlocks,
  countBlocks,
  findBlock,
  insertBlock,
  moveBlock,
  moveStep,
  newBlock,
  removeBlock,
  updateBlock,
} from "./layout-ops.js";

// ─── History (undo / redo) ──────────────────────────────────────────────────────────────────

interface History {
  layout: Layout;
  past: Layout[];
  future: Layout[];
  /** Edits with the same key in a row (typing in one block) make one undo step. */
  lastKey?: string;
  lastAt: number;
}
type HistoryAction =
  | { type: "load"; layout: Layout }
  | { type: "set"; layout: Layout; key?: string }
  | { type: "undo" }
  | { type: "redo" };

function historyReducer(h: History, a: HistoryAction): History {
  switch (a.type) {
    case "load":
      return { layout: a.layout, past: [], future: [], lastAt: 0 };
    case "set": {
      const now = Date.now();
      const coalesce = a.key !== undefined && a.key === h.lastKey && now - h.lastAt < 1500;
      return {
        layout: a.layout,
        past: coalesce ? h.past : [...h.past.slice(-99), h.layout],
        future: [],
        lastKey: a.key,
        lastAt: now,
      };
    }
    case "undo": {
      const prev = h.past[h.past.length - 1];
      if (!prev) return h;
      return { layout: prev, past: h.past.slice(0, -1), future: [h.layout, ...h.future], lastAt: 0 };
    }
    case "redo": {
      const next = h.future[0];
      if (!next) return h;
      return { layout: next, past: [...h.past, h.layout], future: h.future.slice(1), lastAt: 0 };
    }
  }
}

// ─── Geometry of the blocks in the frame ────────────────────────────────────────────────────

interface Rect {
  top: number;
  left: number;
  width: number;
  height: number;
}

/** Where each block is in the frame: by `data-block-id`, or by the element whose id is the block's. */
function measureFrame(
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

// ─── Drag and drop ──────────────────────────────────────────────────────────────────────────

const PRIORITY = (id: string) => (id.startsWith("side:") ? 0 : id.startsWith("gap:") ? 1 : 2);

/** The drop zone under the pointer: column edges first, then the gaps between rows, then blocks. */
const pointerFirst: CollisionDetection = ({ droppableContainers, droppableRects, pointerCoordinates }) => {
  if (!pointerCoordinates) return [];
  const { x, y } = pointerCoordinates;
  const hits = droppableContainers.filter((c) => {
    const r = droppableRects.get(c.id);
    return r && x >= r.left && x <= r.left + r.width && y >= r.top && y <= r.top + r.height;
  });
  hits.sort((a, b) => PRIORITY(String(a.id)) - PRIORITY(String(b.id)));
  return hits.slice(0, 1).map((c) => ({ id: c.id, data: { droppableContainer: c, value: 0 } }));
};

function targetFor(
  overId: string,
  pointerY: number,
  overRect: { top: number; height: number } | undefined,
): Target | undefined {
  const [kind, a, b] = overId.split(":");
  if (kind === "gap") return { kind: "row", index: Number(a) };
  if (kind === "side") return { kind: b === "left" ? "left" : "right", blockId: a! };
  if (kind === "block" && overRect)
    return { kind: pointerY < overRect.top + overRect.height / 2 ? "before" : "after", blockId: a! };
  return undefined;
}

function BlockBox({
  block,
  rect,
  label,
  selected,
  dropHint,
  onSelect,
  onEdit,
  onDelete,
  onMove,
  dragging,
}: {
  block: Block;
  rect: Rect;
  label: string;
  selected: boolean;
  dropHint?: string;
  onSelect: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onMove: (d: -1 | 1) => void;
  dragging: boolean;
}) {
  const drag = useDraggable({ id: block.id });
  const drop = useDroppable({ id: `block:${block.id}` });
  const left = useDroppable({ id: `side:${block.id}:left` });
  const right = useDroppable({ id: `side:${block.id}:right` });
  const edge = Math.min(28, rect.width / 5);
  return (
    <div
      ref={drop.setNodeRef}
      className={`block-box${selected ? " selected" : ""}${dropHint ? ` drop-${dropHint}` : ""}${drag.isDragging ? " dragging" : ""}`}
      style={{ top: rect.top, left: rect.left, width: rect.width, height: rect.height }}
      data-overlay-for={block.id}
    >
      <div ref={left.setNodeRef} style={{ position: "absolute", left: 0, top: 0, bottom: 0, width: edge }} />
      <div
        ref={right.setNodeRef}
        style={{ position: "absolute", right: 0, top: 0, bottom: 0, width: edge }}
      />
      <button
        type="button"
        className="block-select"
        aria-label={`Select ${label} block`}
        aria-pressed={selected}
        onClick={onSelect}
        onDoubleClick={onEdit}
      />
      {selected && !dragging ? (
        <>
          <span className="block-label">{label}</span>
          <div className="block-tools">
            <button
              type="button"
              className="btn handle"
              ref={drag.setNodeRef}
              aria-label={`Drag ${label} block`}
              {...drag.attributes}
              {...drag.listeners}
            >
              ⠿ Move
            </button>
            <button type="button" className="btn" onClick={onEdit} aria-label={`Edit ${label} block`}>
              Edit
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => onMove(-1)}
              aria-label={`Move ${label} block up`}
            >
              ↑
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => onMove(1)}
              aria-label={`Move ${label} block down`}
            >
              ↓
            </button>
            <button type="button" className="btn" onClick={onDelete} aria-label={`Delete ${label} block`}>
              Delete
            </button>
          </div>
        </>
      ) : null}
    </div>
  );
}

function RowGap({ index, top, active }: { index: number; top: number; active: boolean }) {
  const drop = useDroppable({ id: `gap:${index}` });
  return (
    <div
      ref={drop.setNodeRef}
      className={`row-gap${active ? " active" : ""}`}
      style={{ top: top - 7 }}
      aria-hidden="true"
    />
  );
}

// ─── The editor ─────────────────────────────────────────────────────────────────────────────

type SaveState = "saved" | "unsaved" | "saving" | "error" | "published";

export function PageEditor() {
  const { siteId = "", pageId = "" } = useParams();
  const queryClient = useQueryClient();
  const base = `/api/owner/sites/${siteId}`;
  const loaded = useQuery({
    queryKey: ["layout", siteId, pageId],
    queryFn: () => get<LayoutAnswer>(`${base}/pages/${pageId}/layout`),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const types = useQuery({
    queryKey: ["block-types", siteId],
    queryFn: () => get<{ blockTypes: BlockType[] }>(`${base}/block-types`).then((r) => r.blockTypes),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const site = useQuery({
    queryKey: ["site", siteId],
    queryFn: () => get<{ site: Site }>(base).then((r) => r.site),
  });
  const typeByName = useMemo(() => new Map((types.data ?? []).map((t) => [t.type, t])), [types.data]);

  const [h, dispatch] = useReducer(historyReducer, { layout: { rows: [] }, past: [], future: [], lastAt: 0 });
  const layout = h.layout;
  const [ready, setReady] = useState(false);
  const [selected, setSelected] = useState<string | undefined>();
  const [inplace, setInplace] = useState<string | undefined>();
  const [picker, setPicker] = useState(false);
  const [saveState, setSaveState] = useState<SaveState>("saved");
  const [error, setError] = useState<string | undefined>();
  const [frameVersion, setFrameVersionNow] = useState(0);
  // A reload of the frame waits while a block is being dragged (its overlay is the drag source).
  const draggingRef = useRef(false);
  const reloadAfterDrag = useRef(false);
  const setFrameVersion = useCallback((next: (v: number) => number) => {
    if (draggingRef.current) reloadAfterDrag.current = true;
    else setFrameVersionNow(next);
  }, []);
  const endDrag = () => {
    draggingRef.current = false;
    if (reloadAfterDrag.current) {
      reloadAfterDrag.current = false;
      setFrameVersionNow((v) => v + 1);
    }
  };
  const [modeReady, setModeReady] = useState(false);
  const [device, setDevice] = useState<"desktop" | "phone">("desktop");
  const [safeMode, setSafeMode] = useState(false);
  const [geometry, setGeometry] = useState<{ height: number; rects: Map<string, Rect> }>({
    height: 800,
    rects: new Map(),
  });
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [framePath, setFramePath] = useState<string | undefined>();
  const [frameOverride, setFrameOverride] = useState<string | undefined>();
  const canvasRef = useRef<HTMLDivElement>(null);
  // A press on the canvas outside every block (the grey margin) clears the selection.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onDown = (e: PointerEvent) => {
      if (e.target === canvas) setSelected(undefined);
    };
    canvas.addEventListener("pointerdown", onDown);
    return () => canvas.removeEventListener("pointerdown", onDown);
  }, []);
  const savedRef = useRef<string>("");
  const [active, setActive] = useState<string | undefined>();
  const [overTarget, setOverTarget] = useState<Target | undefined>();
  const pointerStart = useRef<{ x: number; y: number } | undefined>(undefined);

  // The editing cookies: drafts in the frame, protected pages visible, safe mode on request.
  useEffect(() => {
    let live = true;
    void setEditingMode(`${base}/editing-mode`, {
      preview: true,
      override: true,
      disableUserScripts: safeMode,
    }).then(() => {
      if (!live) return;
      setModeReady(true);
      setFrameVersion((v) => v + 1);
    });
    return () => {
      live = false;
    };
  }, [base, safeMode, setFrameVersion]);
  useEffect(
    () => () => {
      void setEditingMode(`${base}/editing-mode`, {
        preview: false,
        override: false,
        disableUserScripts: false,
      });
    },
    [base],
  );

  useEffect(() => {
    if (loaded.data && !ready) {
      const start = loaded.data.draft ?? loaded.data.layout;
      savedRef.current = JSON.stringify(start);
      dispatch({ type: "load", layout: start });
      setSaveState(loaded.data.draft ? "saved" : "saved");
      setReady(true);
    }
  }, [loaded.data, ready]);

  const set = useCallback((next: Layout, key?: string) => {
    setError(undefined);
    dispatch({ type: "set", layout: next, key });
  }, []);

  // ── Autosave ──
  const saveDraft = useMutation({
    mutationFn: (l: Layout) => put<LayoutAnswer>(`${base}/pages/${pageId}/draft`, l),
  });
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // mutateAsync is stable; the mutation object is not (it changes with every state of the
  // mutation), and an autosave effect that depended on it would send a refused draft again and
  // again, showing "Unsaved changes" instead of "Not saved" and the server's message.
  const saveDraftAsync = saveDraft.mutateAsync;
  const saveNow = useCallback(
    async (l: Layout) => {
      const json = JSON.stringify(l);
      if (json === savedRef.current) return true;
      setSaveState("saving");
      try {
        await saveDraftAsync(l);
        savedRef.current = json;
        setSaveState("saved");
        return true;
      } catch (err) {
        setSaveState("error");
        setError(errorText(err));
        return false;
      }
    },
    [saveDraftAsync],
  );
  useEffect(() => {
    if (!ready) return;
    if (JSON.stringify(layout) === savedRef.current) return;
    setSaveState("unsaved");
    clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      void saveNow(layout).then((ok) => {
        // The frame shows the saved draft. Only while the owner is typing in the in-place editor
        // (it has the focus) does the frame wait: that editor shows the text, and a reload under
        // it would jump. Typing in the side panel, with the in-place editor merely open, reloads.
        if (ok && !inPlaceHasFocus()) setFrameVersion((v) => v + 1);
      });
    }, 700);
    return () => clearTimeout(pending.current);
  }, [layout, ready, saveNow, setFrameVersion]);

  const publish = useMutation({
    mutationFn: async () => {
      clearTimeout(pending.current);
      const r = await post<LayoutAnswer>(`${base}/pages/${pageId}/publish`, { layout });
      savedRef.current = JSON.stringify(layout);
      return r;
    },
    onSuccess: () => {
      setSaveState("published");
      void queryClient.invalidateQueries({ queryKey: ["pages", siteId] });
      setFrameVersion((v) => v + 1);
    },
    onError: (err) => setError(errorText(err)),
  });

  // ── Frame geometry ──
  const idsRef = useRef<string[]>([]);
  idsRef.current = allBlocks(layout).map((b) => b.id);
  const measure = useCallback(() => {
    const g = measureFrame(frameRef.current, idsRef.current);
    if (g) setGeometry(g);
  }, []);
  const onFrameLoad = useCallback(() => {
    const frame = frameRef.current;
    const doc = frame?.contentDocument;
    if (!doc) return;
    // The path the frame shows, without the frame prefix (links inside the frame keep the prefix).
    const prefix = `/config/frame/${siteId}`;
    const shown = doc.location.pathname.startsWith(prefix)
      ? doc.location.pathname.slice(prefix.length) || "/"
      : "/";
    setFramePath(shown);
    // Links inside the frame stay inside the editor; the overlays take the clicks on blocks.
    const style = doc.createElement("style");
    style.textContent = "html{scroll-behavior:auto!important} [data-block-id]{cursor:default}";
    doc.head?.appendChild(style);
    measure();
    const ro = new ResizeObserver(() => measure());
    ro.observe(doc.body);
    for (const img of doc.images) if (!img.complete) img.addEventListener("load", measure, { once: true });
    void doc.fonts?.ready.then(measure);
    frame!.addEventListener("load", () => ro.disconnect(), { once: true });
  }, [measure, siteId]);
  // The cart pill inside the frame asks the editor to show the cart there instead of navigating.
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== location.origin) return;
      const data = e.data as { type?: string; url?: string } | null;
      if (
        data?.type === "atelier:set-frame-url" &&
        typeof data.url === "string" &&
        data.url.startsWith("/")
      ) {
        setFrameOverride(data.url);
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);
  useEffect(() => {
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [measure]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the device width changes the page's layout
  useEffect(() => {
    const t = setTimeout(measure, 250);
    return () => clearTimeout(t);
  }, [device, measure]);

  // ── Block actions ──
  const blockCount = countBlocks(layout);
  const addBlock = (def: BlockType) => {
    if (blockCount >= MAX_BLOCKS) {
      setError(BLOCK_LIMIT_MESSAGE);
      setPicker(false);
      return;
    }
    const block = newBlock(def);
    const target: Target =
      selected && findBlock(layout, selected)
        ? { kind: "after", blockId: selected }
        : { kind: "row", index: layout.rows.length };
    set(insertBlock(layout, block, target));
    setSelected(block.id);
    setPicker(false);
    if (def.type === "text") setInplace(block.id);
  };
  const deleteBlock = (id: string) => {
    set(removeBlock(layout, id).layout);
    if (selected === id) setSelected(undefined);
    if (inplace === id) setInplace(undefined);
  };
  const editBlock = (id: string) => {
    setSelected(id);
    const b = allBlocks(layout).find((x) => x.id === id);
    if (b?.type === "text") setInplace(id);
    else
      document
        .getElementById("block-panel")
        ?.querySelector<HTMLElement>("input, select, textarea, button")
        ?.focus();
  };
  const finishInplace = () => {
    setInplace(undefined);
    void saveNow(layout).then(() => setFrameVersion((v) => v + 1));
  };

  // ── Keyboard: undo, redo, delete ──
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      const typing = t.closest("input, textarea, select, [contenteditable='true']");
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === "z" && !typing) {
        e.preventDefault();
        dispatch({ type: e.shiftKey ? "redo" : "undo" });
      } else if (mod && e.key.toLowerCase() === "y" && !typing) {
        e.preventDefault();
        dispatch({ type: "redo" });
      } else if ((e.key === "Delete" || e.key === "Backspace") && selected && !typing && !inplace) {
        e.preventDefault();
        deleteBlock(selected);
      } else if (e.key === "Escape" && !typing) {
        setSelected(undefined);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  // ── Drag ──
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));
  const onDragStart = (e: DragStartEvent) => {
    draggingRef.current = true;
    setActive(String(e.active.id));
    setSelected(String(e.active.id));
    const ev = e.activatorEvent as PointerEvent;
    pointerStart.current = { x: ev.clientX, y: ev.clientY };
  };
  const onDragMove = (e: DragMoveEvent) => {
    if (!e.over || !pointerStart.current) return setOverTarget(undefined);
    const y = pointerStart.current.y + e.delta.y;
    setOverTarget(targetFor(String(e.over.id), y, e.over.rect));
  };
  const onDragEnd = (e: DragEndEvent) => {
    const id = String(e.active.id);
    setActive(undefined);
    setOverTarget(undefined);
    endDrag();
    if (!e.over || !pointerStart.current) return;
    const y = pointerStart.current.y + e.delta.y;
    const target = targetFor(String(e.over.id), y, e.over.rect);
    if (!target) return;
    const next = moveBlock(layout, id, target);
    if (next !== layout) set(next);
  };

  const page = loaded.data?.page;
  const frameSrc =
    page && modeReady
      ? `/config/frame/${siteId}${frameOverride ?? page.fullUrl}?editor=${frameVersion}`
      : undefined;
  // The owner followed a link inside the frame: this is not the page being edited.
  const elsewhere = Boolean(
    page && framePath && framePath !== page.fullUrl && framePath !== `${page.fullUrl}/`,
  );
  const selectedBlock = selected ? allBlocks(layout).find((b) => b.id === selected) : undefined;
  const selectedType = selectedBlock ? typeByName.get(selectedBlock.type) : undefined;
  const labelOf = (b: Block) => typeByName.get(b.type)?.label ?? b.type;
  const dropHint = (id: string) => {
    if (!overTarget || !("blockId" in overTarget) || overTarget.blockId !== id) return undefined;
    return overTarget.kind;
  };

  // Row gaps: above each row, and below the last, from the blocks' boxes.
  const rowTops = layout.rows.map((r) => {
    const tops = r.columns
      .flatMap((c) => c.blocks.map((b) => geometry.rects.get(b.id)?.top))
      .filter((t): t is number => t !== undefined);
    return tops.length ? Math.min(...tops) : undefined;
  });
  const lastBottom = Math.max(0, ...[...geometry.rects.values()].map((r) => r.top + r.height));
  const missingOverlays = ready && geometry.rects.size === 0 && blockCount > 0;

  if (loaded.isError) {
    return (
      <div className="main">
        <Notice kind="error">{errorText(loaded.error)}</Notice>
        <Link to={`/sites/${siteId}/pages`}>Back to pages</Link>
      </div>
    );
  }

  return (
    <div className="editor">
      <div className="editor-bar" role="toolbar" aria-label="Page editor">
        <Link className="btn small" to={`/sites/${siteId}/pages`}>
          ← Pages
        </Link>
        <span className="title">{page ? `Editing: ${page.title}` : "Loading…"}</span>
        <output className={`save-state${saveState === "error" ? " error" : ""}`} aria-live="polite">
          {saveState === "saving"
            ? "Saving…"
            : saveState === "unsaved"
              ? "Unsaved changes"
              : saveState === "error"
                ? "Not saved"
                : saveState === "published"
                  ? "Published"
                  : "Draft saved"}
        </output>
        <button
          type="button"
          className="btn small"
          onClick={() => dispatch({ type: "undo" })}
          disabled={!h.past.length}
        >
          Undo
        </button>
        <button
          type="button"
          className="btn small"
          onClick={() => dispatch({ type: "redo" })}
          disabled={!h.future.length}
        >
          Redo
        </button>
        <fieldset className="btn-row hide-phone" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="sr-only">Preview width</legend>
          <button
            type="button"
            className="btn small"
            aria-pressed={device === "desktop"}
            onClick={() => setDevice("desktop")}
          >
            Desktop
          </button>
          <button
            type="button"
            className="btn small"
            aria-pressed={device === "phone"}
            onClick={() => setDevice("phone")}
          >
            Phone
          </button>
        </fieldset>
        <label className="check hide-phone" style={{ margin: 0 }}>
          <input type="checkbox" checked={safeMode} onChange={(e) => setSafeMode(e.target.checked)} />
          <span>Safe mode</span>
        </label>
        <button type="button" className="btn small" onClick={() => setPicker(true)}>
          Add block
        </button>
        <button
          type="button"
          className="btn accent small"
          onClick={() => publish.mutate()}
          disabled={publish.isPending || !ready}
        >
          {publish.isPending ? "Publishing…" : "Publish"}
        </button>
        {site.data && page ? (
          <a
            className="btn small hide-phone"
            href={`${site.data.url}${page.fullUrl}`}
            target="_blank"
            rel="noreferrer"
          >
            View live
          </a>
        ) : null}
      </div>
      <div className="editor-body">
        <div className="canvas" ref={canvasRef}>
          {error ? (
            <div style={{ maxWidth: 900, margin: "0 auto 0.8rem" }}>
              <Notice kind="error">{error}</Notice>
            </div>
          ) : null}
          {saveState === "published" ? (
            <div style={{ maxWidth: 900, margin: "0 auto 0.8rem" }}>
              <Notice kind="ok">
                Published. The page is live
                {site.data && page ? (
                  <>
                    {" "}
                    at{" "}
                    <a href={`${site.data.url}${page.fullUrl}`} target="_blank" rel="noreferrer">
                      {page.fullUrl}
                    </a>
                  </>
                ) : null}
                .
              </Notice>
            </div>
          ) : null}
          {elsewhere ? (
            <div style={{ maxWidth: 900, margin: "0 auto 0.8rem" }}>
              <Notice kind="info">
                You are looking at {framePath}, not the page you are editing.{" "}
                <button
                  type="button"
                  className="btn small"
                  onClick={() => {
                    setFrameOverride(undefined);
                    setFrameVersion((v) => v + 1);
                  }}
                >
                  Back to {page?.title}
                </button>
              </Notice>
            </div>
          ) : null}
          {missingOverlays && !elsewhere ? (
            <div style={{ maxWidth: 900, margin: "0 auto 0.8rem" }}>
              <Notice kind="warn">
                This theme does not mark its blocks: edit them in the outline on the right.
              </Notice>
            </div>
          ) : null}
          <div
            className="canvas-inner"
            style={{ width: device === "phone" ? 432 : "100%", maxWidth: device === "phone" ? 432 : 1400 }}
          >
            {frameSrc ? (
              <iframe
                ref={frameRef}
                title="Page preview"
                src={frameSrc}
                style={{ height: geometry.height }}
                onLoad={onFrameLoad}
              />
            ) : (
              <div style={{ height: 400 }} />
            )}
            <DndContext
              sensors={sensors}
              collisionDetection={pointerFirst}
              onDragStart={onDragStart}
              onDragMove={onDragMove}
              onDragEnd={onDragEnd}
              onDragCancel={() => {
                setActive(undefined);
                setOverTarget(undefined);
                endDrag();
              }}
            >
              <div
                className="overlay-layer"
                style={active ? { pointerEvents: "auto" } : undefined}
                data-testid="overlays"
              >
                {active
                  ? [...rowTops, lastBottom + 10].map((top, i) =>
                      top === undefined ? null : (
                        <RowGap
                          // biome-ignore lint/suspicious/noArrayIndexKey: a gap is its position
                          key={i}
                          index={i}
                          top={top}
                          active={overTarget?.kind === "row" && overTarget.index === i}
                        />
                      ),
                    )
                  : null}
                {allBlocks(layout).map((b) => {
                  const rect = geometry.rects.get(b.id);
                  if (!rect) return null;
                  return (
                    <BlockBox
                      key={b.id}
                      block={b}
                      rect={rect}
                      label={labelOf(b)}
                      selected={selected === b.id}
                      dragging={Boolean(active)}
                      dropHint={active && active !== b.id ? dropHint(b.id) : undefined}
                      onSelect={() => setSelected(b.id)}
                      onEdit={() => editBlock(b.id)}
                      onDelete={() => deleteBlock(b.id)}
                      onMove={(d) => set(moveStep(layout, b.id, d))}
                    />
                  );
                })}
              </div>
              <DragOverlay dropAnimation={null}>
                {active ? (
                  <div className="drag-ghost">
                    {labelOf(allBlocks(layout).find((b) => b.id === active) ?? { id: "", type: "" })}
                  </div>
                ) : null}
              </DragOverlay>
            </DndContext>
            {inplace && geometry.rects.get(inplace) ? (
              <InPlaceText
                key={inplace}
                rect={geometry.rects.get(inplace)!}
                html={String(allBlocks(layout).find((b) => b.id === inplace)?.html ?? "")}
                placeholder={
                  types.data?.find((t) => t.type === "text")?.fields.find((f) => f.key === "html")
                    ?.placeholder
                }
                onChange={(html) => set(updateBlock(layout, inplace, { html }), `text:${inplace}`)}
                onDone={finishInplace}
              />
            ) : null}
          </div>
        </div>
        <aside
          className="panel"
          id="block-panel"
          aria-label={selectedBlock ? "Block settings" : "Page outline"}
        >
          {selectedBlock && selectedType ? (
            <BlockPanel
              key={selectedBlock.id}
              block={selectedBlock}
              type={selectedType}
              onChange={(props, key) => set(updateBlock(layout, selectedBlock.id, props), key)}
              onDelete={() => deleteBlock(selectedBlock.id)}
              onClose={() => setSelected(undefined)}
            />
          ) : (
            <Outline
              siteId={siteId}
              onPillMoved={() => setFrameVersion((v) => v + 1)}
              layout={layout}
              labelOf={labelOf}
              selected={selected}
              onSelect={setSelected}
              onAdd={() => setPicker(true)}
              blockCount={blockCount}
            />
          )}
        </aside>
      </div>
      {picker ? (
        <BlockPicker
          types={types.data ?? []}
          onPick={addBlock}
          onClose={() => setPicker(false)}
          blockCount={blockCount}
        />
      ) : null}
    </div>
  );
}

/** The editing cookies of this browser, set in the order the editor asked (see in-order.ts). */
const setEditingMode = inOrder(
  (url: string, mode: { preview: boolean; override: boolean; disableUserScripts: boolean }) =>
    put<unknown>(url, mode),
);

/** Whether the owner is typing in the in-place text editor drawn over the frame. */
function inPlaceHasFocus(): boolean {
  const active = document.activeElement;
  return Boolean(active && document.querySelector(".inplace")?.contains(active));
}

function InPlaceText({
  rect,
  html,
  placeholder,
  onChange,
  onDone,
}: {
  rect: Rect;
  html: string;
  placeholder?: string;
  onChange: (html: string) => void;
  onDone: () => void;
}) {
  return (
    <div
      className="inplace"
      style={{
        top: rect.top - 4,
        left: rect.left - 4,
        width: Math.max(rect.width + 8, 300),
        minHeight: rect.height + 8,
      }}
    >
      <RichTextEditor value={html} onChange={onChange} placeholder={placeholder} autoFocus />
      <div className="done">
        <button type="button" className="btn primary small" onClick={onDone}>
          Done editing
        </button>
      </div>
    </div>
  );
}

function BlockPanel({
  block,
  type,
  onChange,
  onDelete,
  onClose,
}: {
  block: Block;
  type: BlockType;
  onChange: (props: Record<string, unknown>, key?: string) => void;
  onDelete: () => void;
  onClose: () => void;
}) {
  return (
    <>
      <h2>
        {type.label} block
        <button type="button" className="btn ghost small" onClick={onClose}>
          Close
        </button>
      </h2>
      <p className="muted small">{type.description}</p>
      <FieldList
        fields={type.fields}
        values={block}
        onChange={(k, v) => onChange({ [k]: v }, `${block.id}:${k}`)}
      />
      <button type="button" className="btn danger small" onClick={onDelete}>
        Delete block
      </button>
    </>
  );
}

function Outline({
  layout,
  labelOf,
  selected,
  onSelect,
  onAdd,
  blockCount,
  siteId,
  onPillMoved,
}: {
  siteId: string;
  onPillMoved: () => void;
  layout: Layout;
  labelOf: (b: Block) => string;
  selected?: string;
  onSelect: (id: string) => void;
  onAdd: () => void;
  blockCount: number;
}) {
  const summary = (b: Block) => {
    const text =
      typeof b.html === "string"
        ? b.html.replace(/<[^>]+>/g, " ").trim()
        : typeof b.label === "string"
          ? b.label
          : typeof b.title === "string"
            ? b.title
            : "";
    return text ? ` · ${text.slice(0, 40)}` : "";
  };
  return (
    <>
      <h2>Page outline</h2>
      <p className="muted small">
        {blockCount} of {MAX_BLOCKS} blocks. Select a block on the page to edit it; drag its Move handle to
        another place, or to the edge of a block to make a new column.
      </p>
      <ol className="outline">
        {layout.rows.map((r, ri) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no ids
          <li key={ri} className="row-item">
            <div className="row-head">Row {ri + 1}</div>
            <div className="cols">
              {r.columns.map((c, ci) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns have no ids
                <div key={ci} className="col" style={{ flex: c.span }}>
                  {c.blocks.map((b) => (
                    <button
                      type="button"
                      key={b.id}
                      className={`blk${selected === b.id ? " selected" : ""}`}
                      onClick={() => onSelect(b.id)}
                    >
                      {labelOf(b)}
                      <span className="muted">{summary(b)}</span>
                    </button>
                  ))}
                </div>
              ))}
            </div>
          </li>
        ))}
      </ol>
      {!layout.rows.length ? <p className="muted">This page has no blocks yet.</p> : null}
      <button type="button" className="btn primary" onClick={onAdd}>
        Add block
      </button>
      <CartPillZones siteId={siteId} onChanged={onPillMoved} />
    </>
  );
}

function BlockPicker({
  types,
  onPick,
  onClose,
  blockCount,
}: {
  types: BlockType[];
  onPick: (t: BlockType) => void;
  onClose: () => void;
  blockCount: number;
}) {
  const groups = [...new Set(types.map((t) => t.group))];
  return (
    <Modal title="Add a block" onClose={onClose} wide>
      {blockCount >= MAX_BLOCKS ? <Notice kind="warn">{BLOCK_LIMIT_MESSAGE}</Notice> : null}
      {groups.map((g) => (
        <div className="picker-group" key={g}>
          <h3>{g}</h3>
          <div className="picker-grid">
            {types
              .filter((t) => t.group === g)
              .map((t) => (
                <button
                  type="button"
                  key={t.type}
                  disabled={!t.available || blockCount >= MAX_BLOCKS}
                  onClick={() => onPick(t)}
                  aria-label={`Add ${t.label} block`}
                >
                  <strong>{t.label}</strong>
                  <span>{t.available ? t.description : `Needs a plan with the ${t.featureName}.`}</span>
                </button>
              ))}
          </div>
        </div>
      ))}
    </Modal>
  );
}
