/**
 * The storefront's modal dialog (SPEC §4 Modal): opening locks page scroll, traps focus and
 * registers Escape; it closes on its close button, Escape or a click outside it. Focus returns
 * to what had it before. Rendered into document.body so no theme container clips it.
 */
import { type ReactNode, useId, useLayoutEffect, useRef } from "react";
import { createPortal } from "react-dom";
import { FOCUSABLE, lockScroll, trapTab } from "./dialog.js";
import "./ui.css";
import "./modal.css";

/** The viewport height is re-measured at most this often while resizing (SPEC §9). */
const MODAL_RESIZE_DEBOUNCE_MS = 100;

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Extra class on the dialog box. */
  className?: string;
  /** Text of the close button's accessible name. */
  closeLabel?: string;
  /** "alertdialog" for alerts. */
  role?: "dialog" | "alertdialog";
}

export function Modal({
  title,
  onClose,
  children,
  className,
  closeLabel = "Close",
  role = "dialog",
}: ModalProps) {
  const titleId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  // Before the first paint: a dialog that shows takes focus and answers Escape at once.
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const unlock = lockScroll();
    const box = boxRef.current!;
    const first =
      box.querySelector<HTMLElement>("[data-autofocus]") ?? box.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? box).focus();

    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        closeRef.current();
        return;
      }
      if (e.key !== "Tab") return;
      const items = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null,
      );
      if (items.length === 0) e.preventDefault();
      else trapTab(e, box, items);
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const measure = () => box.style.setProperty("--atelier-modal-vh", `${window.innerHeight}px`);
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(measure, MODAL_RESIZE_DEBOUNCE_MS);
    };
    measure();
    document.addEventListener("keydown", onKey);
    window.addEventListener("resize", onResize);
    return () => {
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("resize", onResize);
      clearTimeout(timer);
      unlock();
      before?.focus?.();
    };
  }, []);

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a click outside the dialog closes it; keyboards use Escape or the close button
    <div
      className="atelier-modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is dialog or alertdialog, both modal */}
      <div
        ref={boxRef}
        className={`atelier-modal${className ? ` ${className}` : ""}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <div className="atelier-modal-head">
          <h2 id={titleId} className="atelier-modal-title">
            {title}
          </h2>
          <button type="button" className="atelier-modal-close" aria-label={closeLabel} onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="atelier-modal-body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
