/**
 * CodeMirror 6 for JSON-T: HTML highlighting with the template's own tags marked over it
 * (directives such as {.section x}, {.repeated section x}, {.if x}, {.end}; variables with their
 * formatters such as {title|html}; comments), and lint diagnostics from compiling the source in
 * the browser with @atelier/jsont, the engine the server renders with.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { html } from "@codemirror/lang-html";
import { bracketMatching } from "@codemirror/language";
import { type Diagnostic, lintGutter, linter } from "@codemirror/lint";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { EditorState, type Extension, type Text } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  EditorView,
  MatchDecorator,
  ViewPlugin,
  type ViewUpdate,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { type TemplateError, parse } from "@atelier/jsont";
import { readableHighlighting } from "../../components/form/code-highlight.js";

/** The syntax errors of a template source, first by position (what the server would refuse). */
export function syntaxErrors(source: string): TemplateError[] {
  return parse(source).errors;
}

/** A line and column (1-based, as the engine counts them) as a document offset. */
export function offsetOf(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
  return Math.min(l.from + Math.max(column - 1, 0), l.to);
}

/** A JSON-T tag's kind, by its first characters. */
export function tagClass(tag: string): string {
  if (tag.startsWith("{#")) return "cm-jsont-comment";
  if (tag.startsWith("{.")) return "cm-jsont-directive";
  return "cm-jsont-variable";
}

export const TAG = /\{#[^\n]*?\}|\{\.[a-z][^{}\n]*\}|\{[@$A-Za-z_][\w.@$-]*(?:\|[^{}\n]*)?\}/g;

const tags = new MatchDecorator({
  regexp: TAG,
  decoration: (m) => Decoration.mark({ class: tagClass(m[0]) }),
});

const jsontTags = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = tags.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = tags.updateDeco(update, this.decorations);
    }
  },
  { decorations: (v) => v.decorations },
);

const jsontLint = linter(
  (view) =>
    syntaxErrors(view.state.doc.toString()).map((e): Diagnostic => {
      const from = offsetOf(view.state.doc, e.line, e.column);
      const to = Math.min(from + 1, view.state.doc.length);
      return { from, to, severity: "error", message: `Line ${e.line}, column ${e.column}: ${e.message}` };
    }),
  { delay: 250 },
);

const theme = EditorView.theme({
  "&": { fontSize: "13px", height: "100%", backgroundColor: "#fff" },
  ".cm-scroller": {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  },
  ".cm-content": { padding: "8px 0" },
  ".cm-gutters": { backgroundColor: "#f6f6f8", color: "#666675", borderRight: "1px solid #e4e4ea" },
  ".cm-jsont-directive, .cm-jsont-directive *": { color: "#8a2be2 !important", fontWeight: "600" },
  ".cm-jsont-variable, .cm-jsont-variable *": { color: "#0b6e4f !important" },
  ".cm-jsont-comment, .cm-jsont-comment *": { color: "#666675 !important", fontStyle: "italic" },
});

/** Everything the template editor needs, with `onChange` told of every edit. */
export function editorExtensions(
  onChange: (source: string) => void,
  label: string,
  describedBy: string,
): Extension[] {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    history(),
    drawSelection(),
    bracketMatching(),
    highlightSelectionMatches(),
    html({ autoCloseTags: false }),
    readableHighlighting,
    jsontTags,
    jsontLint,
    lintGutter(),
    keymap.of([indentWithTab, ...defaultKeymap, ...historyKeymap, ...searchKeymap]),
    EditorState.tabSize.of(2),
    // An explicit stop in the tab order, so the scrolling area is reachable (WCAG 2.1.1).
    EditorView.contentAttributes.of({ "aria-label": label, "aria-describedby": describedBy, tabindex: "0" }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) onChange(u.state.doc.toString());
    }),
    theme,
  ];
}
