import { useMemo, useState } from "react";
import { useNavigate } from "react-router-dom";
import { ApiError, api, unwrap, type FieldError } from "../api/client";
import { useBackends } from "../backends/backends";
import { YamlEditor, type LineError } from "../common/YamlEditor";
import { lineOfField } from "./fieldLines";

type ConfigField = "taskConfig" | "resourceConfig";

interface Form {
  project: string;
  jobName: string;
  labels: string;
  priority: string;
  /** A backend's name, or "" for the one that runs the resource config's trainerResourceConfig. */
  backend: string;
  taskConfig: string;
  resourceConfig: string;
}

const EMPTY: Form = {
  project: "default",
  jobName: "",
  labels: "",
  priority: "0",
  backend: "",
  taskConfig: "",
  resourceConfig: "",
};

function body(form: Form) {
  const labels = Object.fromEntries(
    form.labels
      .split(/[\n,]/)
      .map((pair) => pair.trim())
      .filter(Boolean)
      .map((pair) => [
        pair.slice(0, pair.indexOf("=") < 0 ? pair.length : pair.indexOf("=")),
        pair.includes("=") ? pair.slice(pair.indexOf("=") + 1) : "",
      ]),
  );
  return {
    project: form.project || undefined,
    jobName: form.jobName,
    taskConfig: form.taskConfig,
    resourceConfig: form.resourceConfig,
    labels,
    priority: form.priority === "" ? undefined : Number(form.priority),
    backend: form.backend || undefined,
  };
}

/**
 * Submits a job: configs typed or uploaded into YAML editors, labels and priority, a dry run that shows the
 * launch plan, and field errors shown at the line of the config they name. Every submission of the same form
 * carries the same Idempotency-Key, so a double click or a retry after a lost answer makes one job.
 */
export function SubmitPage() {
  const [form, setForm] = useState<Form>(EMPTY);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string>();
  const [plan, setPlan] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const backends = useBackends();

  function edit(change: Partial<Form>) {
    setForm((current) => ({ ...current, ...change }));
    setKey(crypto.randomUUID()); // a different form is a different submission
  }

  const lineErrors = useMemo(() => {
    const at = (field: ConfigField): LineError[] =>
      errors
        .filter((e) => e.field === field || e.field.startsWith(field + "."))
        .map((e) => ({
          line: lineOfField(form[field], e.field.slice(field.length + 1)),
          message: `${e.field}: ${e.message}`,
        }));
    return { taskConfig: at("taskConfig"), resourceConfig: at("resourceConfig") };
  }, [errors, form]);
  const otherErrors = errors.filter((e) => !/^(taskConfig|resourceConfig)(\.|$)/.test(e.field));

  function failed(e: unknown) {
    setPlan(undefined);
    if (e instanceof ApiError) {
      setErrors(e.errors);
      setMessage(e.errors.length ? `${e.errors.length} field(s) are invalid` : e.detail);
    } else {
      setMessage((e as Error).message);
    }
  }

  async function dryRun() {
    setBusy(true);
    setErrors([]);
    setMessage(undefined);
    try {
      setPlan(await unwrap(api.POST("/jobs/dry-run", { body: body(form) })));
    } catch (e) {
      failed(e);
    } finally {
      setBusy(false);
    }
  }

  async function submit() {
    setBusy(true);
    setErrors([]);
    setMessage(undefined);
    try {
      const job = (await unwrap(
        api.POST("/jobs", { params: { header: { "Idempotency-Key": key } }, body: body(form) }),
      )) as { id: string };
      navigate(`/ui/jobs/${job.id}`);
    } catch (e) {
      failed(e);
    } finally {
      setBusy(false);
    }
  }

  function upload(field: ConfigField, files: FileList | null) {
    files?.[0]?.text().then((text) => edit({ [field]: text }));
  }

  return (
    <section className="submit-page">
      <h1>Submit a job</h1>
      <div className="form-row">
        <label>
          Job name
          <input
            value={form.jobName}
            onChange={(e) => edit({ jobName: e.target.value })}
            placeholder="cora_link_prediction"
          />
        </label>
        <label>
          Project
          <input value={form.project} onChange={(e) => edit({ project: e.target.value })} />
        </label>
        <label>
          Priority
          <input
            type="number"
            value={form.priority}
            onChange={(e) => edit({ priority: e.target.value })}
            min={-1000}
            max={1000}
          />
        </label>
        <label>
          Backend
          <select value={form.backend} onChange={(e) => edit({ backend: e.target.value })}>
            <option value="">chosen by the resource config</option>
            {(backends.data ?? []).map((b) => (
              <option key={b.name} value={b.name} title={b.description}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          Labels
          <input
            value={form.labels}
            onChange={(e) => edit({ labels: e.target.value })}
            placeholder="team=graph, purpose=demo"
          />
        </label>
      </div>
      {otherErrors.length > 0 && (
        <ul className="error" data-testid="field-errors">
          {otherErrors.map((e) => (
            <li key={e.field + e.message}>
              {e.field}: {e.message}
            </li>
          ))}
        </ul>
      )}
      <div className="editors">
        {(["taskConfig", "resourceConfig"] as ConfigField[]).map((field) => (
          <div key={field} className="editor">
            <div className="editor-head">
              <h3>{field === "taskConfig" ? "Task config" : "Resource config"}</h3>
              <label className="upload">
                Upload YAML
                <input
                  type="file"
                  accept=".yaml,.yml,text/yaml"
                  aria-label={`Upload ${field}`}
                  onChange={(e) => upload(field, e.target.files)}
                />
              </label>
            </div>
            <YamlEditor
              label={field}
              value={form[field]}
              onChange={(value) => edit({ [field]: value })}
              errors={lineErrors[field]}
              height="360px"
            />
            {lineErrors[field].length > 0 && (
              <ul className="error line-errors">
                {lineErrors[field].map((e) => (
                  <li key={e.message}>
                    line {e.line}: {e.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        ))}
      </div>
      <div className="actions">
        <button onClick={dryRun} disabled={busy}>
          Preview launch plan
        </button>
        <button className="primary" onClick={submit} disabled={busy}>
          Submit
        </button>
        {message && <span className="error">{message}</span>}
      </div>
      {plan !== undefined && (
        <div className="plan">
          <h3>Launch plan (dry run)</h3>
          <pre data-testid="launch-plan">{JSON.stringify(plan, null, 2)}</pre>
        </div>
      )}
    </section>
  );
}
