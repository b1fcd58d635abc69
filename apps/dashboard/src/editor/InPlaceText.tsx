/** Text edited in place over the frame, and the editing cookies set in order. */
import { put } from "../api.js";
import { RichTextEditor } from "../components/RichText.js";
import { inOrder } from "./in-order.js";
import type { Rect } from "./frame-geometry.js";

/** The editing cookies of this browser, set in the order the editor asked (see in-order.ts). */
export const setEditingMode = inOrder(
  (url: string, mode: { preview: boolean; override: boolean; disableUserScripts: boolean }) =>
    put<unknown>(url, mode),
);

/** Whether the owner is typing in the in-place text editor drawn over the frame. */
export function inPlaceHasFocus(): boolean {
  const active = document.activeElement;
  return Boolean(active && document.querySelector(".inplace")?.contains(active));
}

export function InPlaceText({
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
