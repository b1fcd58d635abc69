/** The CodeMirror 6 editor behind CodeField, in its own chunk: loaded the first time a code field shows. */
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching } from "@codemirror/language";
import { type Extension, EditorState } from "@codemirror/state";
import { EditorView, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { useEffect, useId, useRef } from "react";
import { CODE_KEYS_HINT, readableHighlighting } from "./code-highlight.js";

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  labelledBy: string;
  describedBy?: string;
  language?: Extension;
  readOnly?: boolean;
}

export default function CodeEditor({
  value,
  onChange,
  labelledBy,
  describedBy,
  language,
  readOnly,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const hintId = useId();
  const changed = useRef(onChange);
  changed.current = onChange;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is made once per language; later values arrive through the effect below
  useEffect(() => {
    const attrs: Record<string, string> = {
      "aria-labelledby": labelledBy,
      "aria-multiline": "true",
      "aria-describedby": [describedBy, readOnly ? "" : hintId].filter(Boolean).join(" "),
      // An explicit stop in the tab order, so the scrolling area is reachable (WCAG 2.1.1).
      tabindex: "0",
    };
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          bracketMatching(),
          highlightActiveLine(),
          // Long lines wrap: the field is often a narrow side panel.
          EditorView.lineWrapping,
          readableHighlighting,
          // Tab indents; Escape then Tab leaves the editor, as CodeMirror documents for keyboard users.
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.contentAttributes.of(attrs),
          EditorState.readOnly.of(Boolean(readOnly)),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) changed.current(u.state.doc.toString());
          }),
          ...(language ? [language] : []),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, [language, readOnly, labelledBy, describedBy]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  return (
    <>
      <div className="code-editor" ref={host} />
      {readOnly ? null : (
        <p className="help" id={hintId}>
          {CODE_KEYS_HINT}
        </p>
      )}
    </>
  );
}
