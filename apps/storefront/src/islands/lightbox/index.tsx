/**
 * Island `lightbox`: drives a gallery the theme rendered (grid, slideshow, slider, stacked, or a
 * product's images). With the gallery's `lightbox` option, a click on an image opens it in a
 * modal lightbox (SPEC §2, §4): opening locks page scroll, traps focus and registers Escape; it
 * closes on its close button, Escape or a click outside the image; arrows and the keyboard move
 * between images. Slideshows and sliders get working previous/next controls, thumbnails and
 * autoplay (the `autoplay-duration` option, paused on hover, focus and reduced motion).
 *
 * Props: { galleryId, selector?, options, slides: [{ src, srcset, original, width, height, title, description }] }.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { FOCUSABLE, lockScroll, trapTab } from "../../lib/dialog.js";
import "./lightbox.css";

export interface Slide {
  src: string;
  srcset?: string;
  original?: string;
  width?: number;
  height?: number;
  title?: string;
  description?: string;
}

export interface LightboxProps {
  galleryId: string;
  selector?: string;
  options?: Record<string, unknown>;
  slides?: Slide[];
}

/** The gallery element the island drives. */
export function galleryRoot(props: Pick<LightboxProps, "galleryId" | "selector">): HTMLElement | null {
  if (props.selector) return document.querySelector<HTMLElement>(props.selector);
  return document.getElementById(props.galleryId);
}

/** The next index, wrapping around. */
export function step(index: number, delta: number, count: number): number {
  if (count <= 0) return 0;
  return (((index + delta) % count) + count) % count;
}

function currentSlide(stage: HTMLElement): number {
  const slides = [...stage.children] as HTMLElement[];
  if (!slides.length) return 0;
  const left = stage.scrollLeft;
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  slides.forEach((el, i) => {
    const d = Math.abs(el.offsetLeft - stage.offsetLeft - left);
    if (d < bestDistance) {
      best = i;
      bestDistance = d;
    }
  });
  return best;
}

function scrollToSlide(stage: HTMLElement, index: number) {
  const slide = stage.children[index] as HTMLElement | undefined;
  if (!slide) return;
  stage.scrollTo({ left: slide.offsetLeft - stage.offsetLeft, behavior: "smooth" });
}

/** Wires a slideshow's or slider's controls, thumbnails and autoplay; returns the cleanup. */
function driveCarousel(root: HTMLElement, options: Record<string, unknown>): () => void {
  const stage = root.querySelector<HTMLElement>("[data-gallery-stage]");
  if (!stage) return () => {};
  const count = stage.children.length;
  const counter = root.querySelector<HTMLElement>("[data-gallery-counter]");
  const thumbs = [...root.querySelectorAll<HTMLAnchorElement>("[data-gallery-goto]")];
  const show = (i: number) => scrollToSlide(stage, i);
  const update = () => {
    const i = currentSlide(stage);
    if (counter) counter.textContent = `${i + 1} / ${count}`;
    for (const [n, t] of thumbs.entries()) t.setAttribute("aria-current", n === i ? "true" : "false");
  };
  const prev = () => show(step(currentSlide(stage), -1, count));
  const next = () => show(step(currentSlide(stage), 1, count));
  const prevButtons = [...root.querySelectorAll<HTMLButtonElement>("[data-gallery-prev]")];
  const nextButtons = [...root.querySelectorAll<HTMLButtonElement>("[data-gallery-next]")];
  for (const b of prevButtons) b.addEventListener("click", prev);
  for (const b of nextButtons) b.addEventListener("click", next);
  const onThumb = (e: Event) => {
    const a = (e.target as Element).closest<HTMLAnchorElement>("[data-gallery-goto]");
    if (!a) return;
    e.preventDefault();
    show(Number(a.dataset.galleryGoto) - 1);
  };
  root.addEventListener("click", onThumb);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "ArrowLeft") prev();
    if (e.key === "ArrowRight") next();
  };
  stage.addEventListener("keydown", onKey);
  let scrollTimer: ReturnType<typeof setTimeout> | undefined;
  const onScroll = () => {
    clearTimeout(scrollTimer);
    scrollTimer = setTimeout(update, 80);
  };
  stage.addEventListener("scroll", onScroll, { passive: true });
  update();

  let timer: ReturnType<typeof setInterval> | undefined;
  let paused = false;
  // Asked on every tick too, so turning reduced motion on stops a slideshow already playing.
  const reduced = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
  const pause = () => {
    paused = true;
  };
  const resume = () => {
    paused = false;
  };
  if (options.autoplay && !reduced() && count > 1) {
    const ms = Math.min(10, Math.max(1, Number(options["autoplay-duration"]) || 5)) * 1000;
    timer = setInterval(() => {
      if (!paused && !document.hidden && !reduced()) next();
    }, ms);
    root.addEventListener("mouseenter", pause);
    root.addEventListener("mouseleave", resume);
    root.addEventListener("focusin", pause);
    root.addEventListener("focusout", resume);
  }
  return () => {
    for (const b of prevButtons) b.removeEventListener("click", prev);
    for (const b of nextButtons) b.removeEventListener("click", next);
    root.removeEventListener("click", onThumb);
    stage.removeEventListener("keydown", onKey);
    stage.removeEventListener("scroll", onScroll);
    root.removeEventListener("mouseenter", pause);
    root.removeEventListener("mouseleave", resume);
    root.removeEventListener("focusin", pause);
    root.removeEventListener("focusout", resume);
    clearInterval(timer);
    clearTimeout(scrollTimer);
  };
}

function LightboxModal({
  slides,
  index,
  theme,
  onIndex,
  onClose,
}: {
  slides: Slide[];
  index: number;
  theme: string;
  onIndex: (i: number) => void;
  onClose: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const count = slides.length;
  const slide = slides[index]!;
  const go = useCallback((delta: number) => onIndex(step(index, delta, count)), [index, count, onIndex]);
  const goRef = useRef(go);
  goRef.current = go;

  // Before the first paint: the open lightbox takes focus and answers the keys at once.
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const unlock = lockScroll();
    box.current?.querySelector<HTMLElement>(".lightbox-close")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        closeRef.current();
      } else if (e.key === "ArrowLeft") {
        goRef.current(-1);
      } else if (e.key === "ArrowRight") {
        goRef.current(1);
      } else if (e.key === "Tab" && box.current) {
        trapTab(e, box.current, [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)]);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      unlock();
      before?.focus?.();
    };
  }, []);

  return createPortal(
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape and the close button close it for keyboards
    <div
      ref={box}
      className={`lightbox lightbox-${theme === "light" ? "light" : "dark"}`}
      role="dialog"
      aria-modal="true"
      aria-label={slide.title ? `Image: ${slide.title}` : "Image viewer"}
      onClick={(e) => {
        const t = e.target as HTMLElement;
        if (!t.closest("img, button, a, .lightbox-caption")) onClose();
      }}
    >
      <div className="lightbox-bar">
        <span className="lightbox-count" aria-live="polite">
          {index + 1} / {count}
        </span>
        <button type="button" className="lightbox-close" aria-label="Close" onClick={onClose}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <div className="lightbox-stage">
        {count > 1 && (
          <button type="button" className="lightbox-prev" aria-label="Previous image" onClick={() => go(-1)}>
            <span aria-hidden="true">‹</span>
          </button>
        )}
        <img
          key={slide.src}
          src={slide.src}
          srcSet={slide.srcset}
          sizes="100vw"
          width={slide.width}
          height={slide.height}
          alt={slide.title ?? ""}
        />
        {count > 1 && (
          <button type="button" className="lightbox-next" aria-label="Next image" onClick={() => go(1)}>
            <span aria-hidden="true">›</span>
          </button>
        )}
      </div>
      <div className="lightbox-caption">
        {slide.title && <strong>{slide.title}</strong>}
        {slide.description && <span> — {slide.description}</span>}
      </div>
    </div>,
    document.body,
  );
}

export default function Lightbox({ galleryId, selector, options = {}, slides = [] }: LightboxProps) {
  const [open, setOpen] = useState<number | null>(null);

  useEffect(() => {
    const root = galleryRoot({ galleryId, selector });
    if (!root) return;
    const cleanups: (() => void)[] = [];
    const design = String(options.design ?? "");
    if (design === "slideshow" || design === "slider") cleanups.push(driveCarousel(root, options));
    if (options.lightbox && slides.length) {
      const onClick = (e: MouseEvent) => {
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
        const link = (e.target as Element).closest<HTMLElement>("[data-lightbox-index]");
        if (!link || !root.contains(link)) return;
        const index = Number(link.dataset.lightboxIndex) - 1;
        if (!Number.isInteger(index) || index < 0 || index >= slides.length) return;
        e.preventDefault();
        setOpen(index);
      };
      root.addEventListener("click", onClick);
      cleanups.push(() => root.removeEventListener("click", onClick));
    }
    return () => {
      for (const c of cleanups) c();
    };
  }, [galleryId, selector, options, slides.length]);

  if (open === null || !slides[open]) return null;
  return (
    <LightboxModal
      slides={slides}
      index={open}
      theme={String(options.lightboxTheme ?? "dark")}
      onIndex={setOpen}
      onClose={() => setOpen(null)}
    />
  );
}
