/** Code (CSS, HTML, templates) in a CodeMirror editor with line numbers; the language is an extension. */
import type { Extension } from "@codemirror/state";
import { Suspense, lazy } from "react";
import { Field, type ValueFieldProps } from "./Field.js";

const CodeEditor = lazy(() => import("./CodeEditor.js"));

export function CodeField({
  label,
  help,
  error,
  value,
  onChange,
  language,
  readOnly,
}: ValueFieldProps<string> & {
  /** e.g. `css()` from @codemirror/lang-css; keep it stable (module scope or useMemo). */
  language?: Extension;
  readOnly?: boolean;
}) {
  return (
    <Field label={label} help={help} error={error} labelFor={false}>
      {({ labelId, describedBy }) => (
        <Suspense fallback={<div className="code-editor" aria-busy="true" />}>
          <CodeEditor
            value={value}
            onChange={onChange}
            labelledBy={labelId}
            describedBy={describedBy}
            language={language}
            readOnly={readOnly}
          />
        </Suspense>
      )}
    </Field>
  );
}
