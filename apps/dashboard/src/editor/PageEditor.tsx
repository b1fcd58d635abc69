/**
 * The visual page editor: the real page, rendered by the server from the autosaved draft, in an
 * editing frame with block overlays. Select a block to edit its fields, double-click text to edit
 * it in place, drag a block's handle to reorder it or move it into another row or column, add
 * blocks from the picker, undo and redo, and Publish.
 */
import { NotAllowed, useCan } from "../components/permissions.js";
import {
  DndContext,
  type DragEndEvent,
  type DragMoveEvent,
  DragOverlay,
  type DragStartEvent,
  PointerSensor,
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
import { Notice } from "../components/ui.js";
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
import { historyReducer } from "./history.js";
import { type Rect, measureFrame } from "./frame-geometry.js";
import { BlockBox, RowGap, pointerFirst, targetFor } from "./drag.js";
import { InPlaceText, inPlaceHasFocus, setEditingMode } from "./InPlaceText.js";
import { BlockPanel } from "./BlockPanel.js";
import { Outline } from "./Outline.js";
import { BlockPicker } from "./BlockPicker.js";
import { EditorToolbar, type SaveState } from "./EditorToolbar.js";
import { HistoryButton } from "../components/history/HistoryPanel.js";

// ─── The editor ─────────────────────────────────────────────────────────────────────────────

/**
 * The page editor, for a member whose roles give the site's content; one reaching it by its URL
 * without them is told so (it is outside the Shell, whose guard says it for the other screens).
 */
export function PageEditor() {
  const { can, known } = useCan();
  if (known && !can("content.read")) {
    return (
      <div className="main">
        <div className="content">
          <NotAllowed />
        </div>
      </div>
    );
  }
  return <PageEditorScreen />;
}

function PageEditorScreen() {
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
  const canvasRef = useRef<HTMLElement>(null);
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
      <EditorToolbar
        siteId={siteId}
        title={page ? `Editing: ${page.title}` : "Loading…"}
        saveState={saveState}
        canUndo={h.past.length > 0}
        canRedo={h.future.length > 0}
        onUndo={() => dispatch({ type: "undo" })}
        onRedo={() => dispatch({ type: "redo" })}
        device={device}
        setDevice={setDevice}
        safeMode={safeMode}
        setSafeMode={setSafeMode}
        onAdd={() => setPicker(true)}
        onPublish={() => publish.mutate()}
        publishing={publish.isPending}
        ready={ready}
        liveUrl={site.data && page ? `${site.data.url}${page.fullUrl}` : undefined}
        history={
          page ? (
            <HistoryButton
              entity={`page:${pageId}`}
              label={page.title}
              write="content.write"
              invalidate={[["pages", siteId]]}
              onRestored={() =>
                void loaded.refetch().then(() => {
                  setReady(false);
                  setFrameVersion((v) => v + 1);
                })
              }
            />
          ) : null
        }
      />
      <div className="editor-body">
        {/* A stop of its own in the tab order: the preview scrolls with the arrow keys too. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1) */}
        <section className="canvas" ref={canvasRef} tabIndex={0} aria-label="Page preview area">
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
        </section>
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
              onMove={(d) => set(moveStep(layout, selectedBlock.id, d))}
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
          types={types}
          onPick={addBlock}
          onClose={() => setPicker(false)}
          blockCount={blockCount}
        />
      ) : null}
    </div>
  );
}
