import { useMemo } from "react";
import CodeMirror from "@uiw/react-codemirror";
import { yaml } from "@codemirror/lang-yaml";
import { linter, lintGutter, type Diagnostic } from "@codemirror/lint";
import type { Text } from "@codemirror/state";

/** A problem to show at a line of the YAML (1-based). */
export interface LineError {
  line: number;
  message: string;
}

// One empty list for every editor without errors, so that its extensions are not made anew at each render.
const NO_ERRORS: LineError[] = [];

/** CodeMirror 6 with YAML highlighting; errors are shown at their lines (gutter marker and underline). */
export function YamlEditor(props: {
  value: string;
  onChange?: (value: string) => void;
  errors?: LineError[];
  label: string;
  height?: string;
}) {
  const errors = props.errors ?? NO_ERRORS;
  const extensions = useMemo(
    () => [
      yaml(),
      lintGutter(),
      linter(
        (view) =>
          errors.map((error): Diagnostic => {
            const doc: Text = view.state.doc;
            const line = doc.line(Math.min(Math.max(error.line, 1), doc.lines));
            return { from: line.from, to: line.to, severity: "error", message: error.message };
          }),
        { delay: 0 },
      ),
    ],
    [errors],
  );
  return (
    <div className="yaml-editor" aria-label={props.label} data-testid={`yaml-${props.label}`}>
      <CodeMirror
        value={props.value}
        onChange={props.onChange}
        readOnly={!props.onChange}
        extensions={extensions}
        height={props.height ?? "auto"}
        basicSetup={{ foldGutter: true }}
      />
    </div>
  );
}
