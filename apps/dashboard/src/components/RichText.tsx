/** The rich-text editor, loaded on first use (Tiptap is most of the dashboard's weight). */
import { type CSSProperties, Suspense, lazy } from "react";

const Impl = lazy(() => import("./RichTextImpl.js"));

export function RichTextEditor(props: {
  value: string;
  onChange: (html: string) => void;
  labelledBy?: string;
  autoFocus?: boolean;
  placeholder?: string;
  style?: CSSProperties;
}) {
  return (
    <Suspense fallback={<div className="rte" style={{ minHeight: 150, ...props.style }} aria-busy="true" />}>
      <Impl {...props} />
    </Suspense>
  );
}
