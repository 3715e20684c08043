import { useEffect, useMemo, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { api, unwrap, type Job, type JobState } from "../api/client";
import { ConfirmButton } from "../common/Confirm";
import { useBackends } from "../backends/backends";
import { CompareButton } from "../compare/CompareButton";
import { COLUMNS, loadColumns, saveColumns } from "./columns";
import { useJobs, type JobFilter } from "./jobs";
import { STATES, ACTIVE_STATES, isActive } from "./StateChip";

const ROW_HEIGHT = 34;

export function JobsPage() {
  const [filter, setFilter] = useState<JobFilter>({ states: [], namePrefix: "", label: "", project: "" });
  const [backend, setBackend] = useState("");
  const [columns, setColumns] = useState(loadColumns);
  const [sort, setSort] = useState<{ column: string; descending: boolean } | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const jobs = useJobs(filter);
  const backends = useBackends();
  const projects = useQuery({ queryKey: ["projects"], queryFn: () => unwrap(api.GET("/projects")) });
  const client = useQueryClient();

  // The API filters by state, name, label and project; the backend is filtered here, in the loaded pages.
  const rows = useMemo(() => {
    let all: Job[] = jobs.data?.pages.flatMap((page) => page.jobs ?? []) ?? [];
    if (backend) all = all.filter((job) => job.backend === backend);
    if (sort) {
      const column = COLUMNS.find((c) => c.id === sort.column)!;
      all = [...all].sort((a, b) => {
        const x = column.sortValue(a);
        const y = column.sortValue(b);
        return (x < y ? -1 : x > y ? 1 : 0) * (sort.descending ? -1 : 1);
      });
    }
    return all;
  }, [jobs.data, backend, sort]);

  const scroller = useRef<HTMLDivElement>(null);
  // The React Compiler, which the build does not run, would leave this component unmemoised; nothing memoised is
  // handed the virtualizer's functions.
  // eslint-disable-next-line react-hooks/incompatible-library -- it reports what the compiler would skip, not a fault
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index;
  useEffect(() => {
    if (lastIndex !== undefined && lastIndex >= rows.length - 30 && jobs.hasNextPage && !jobs.isFetchingNextPage) {
      jobs.fetchNextPage();
    }
  }, [lastIndex, rows.length, jobs]);

  const shown = COLUMNS.filter((c) => columns.includes(c.id));
  const template = `2rem ${shown.map((c) => c.width).join(" ")}`;
  const ticked = rows.filter((job) => selected.has(job.id!));
  const cancellable = ticked.filter((job) => isActive(job.state));

  function toggleColumn(id: string) {
    const next = columns.includes(id)
      ? columns.filter((c) => c !== id)
      : COLUMNS.map((c) => c.id).filter((c) => c === id || columns.includes(c));
    setColumns(next);
    saveColumns(next);
  }
  function toggleState(state: JobState) {
    const states = filter.states.includes(state) ? filter.states.filter((s) => s !== state) : [...filter.states, state];
    setFilter({ ...filter, states });
  }
  async function cancelSelected() {
    await Promise.all(
      cancellable.map((job) => unwrap(api.POST("/jobs/{id}/cancel", { params: { path: { id: job.id! } } }))),
    );
    setSelected(new Set());
    await client.invalidateQueries({ queryKey: ["jobs"] });
  }

  return (
    <section className="jobs-page">
      <div className="filters">
        <div className="chips" role="group" aria-label="States">
          <button
            className={`chip ${filter.states.length === ACTIVE_STATES.length && ACTIVE_STATES.every((s) => filter.states.includes(s)) ? "on" : ""}`}
            onClick={() => setFilter({ ...filter, states: filter.states.length ? [] : ACTIVE_STATES })}
          >
            active
          </button>
          {STATES.map((state) => (
            <button
              key={state}
              aria-pressed={filter.states.includes(state)}
              className={`chip state-${state.toLowerCase()} ${filter.states.includes(state) ? "on" : "off"}`}
              onClick={() => toggleState(state)}
            >
              {state}
            </button>
          ))}
        </div>
        <input
          aria-label="Name starts with"
          placeholder="name starts with"
          value={filter.namePrefix}
          onChange={(e) => setFilter({ ...filter, namePrefix: e.target.value })}
        />
        <input
          aria-label="Label"
          placeholder="label key=value"
          onChange={(e) => setFilter({ ...filter, label: e.target.value.includes("=") ? e.target.value : "" })}
        />
        <select
          aria-label="Project"
          value={filter.project}
          onChange={(e) => setFilter({ ...filter, project: e.target.value })}
        >
          <option value="">every project</option>
          {(projects.data ?? []).map((p) => (
            <option key={p.name}>{p.name}</option>
          ))}
        </select>
        <select aria-label="Backend" value={backend} onChange={(e) => setBackend(e.target.value)}>
          <option value="">every backend</option>
          {(backends.data ?? []).map((b) => (
            <option key={b.name} value={b.name} title={b.description}>
              {b.name}
            </option>
          ))}
        </select>
        <details className="column-picker">
          <summary>Columns</summary>
          {COLUMNS.map((c) => (
            <label key={c.id}>
              <input type="checkbox" checked={columns.includes(c.id)} onChange={() => toggleColumn(c.id)} /> {c.label}
            </label>
          ))}
        </details>
        <ConfirmButton
          label={`Cancel ${cancellable.length} selected`}
          disabled={cancellable.length === 0}
          danger
          question={`Cancel ${cancellable.length} job(s): ${cancellable.map((j) => j.jobName).join(", ")}?`}
          onConfirm={cancelSelected}
        />
        <CompareButton jobIds={ticked.map((job) => job.id!)} />
      </div>
      {jobs.error && <p className="error">{jobs.error.message}</p>}
      <div className="grid-head" style={{ gridTemplateColumns: template }}>
        <input
          type="checkbox"
          aria-label="Select all"
          checked={rows.length > 0 && selected.size === rows.length}
          onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((j) => j.id!)) : new Set())}
        />
        {shown.map((c) => (
          <button
            key={c.id}
            className="sort"
            onClick={() =>
              setSort(
                sort?.column === c.id
                  ? sort.descending
                    ? null
                    : { column: c.id, descending: true }
                  : { column: c.id, descending: false },
              )
            }
          >
            {c.label}
            {sort?.column === c.id ? (sort.descending ? " ▼" : " ▲") : ""}
          </button>
        ))}
      </div>
      <div ref={scroller} className="grid-body" data-testid="jobs-grid">
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {items.map((item) => {
            const job = rows[item.index];
            return (
              <div
                key={job.id}
                className="grid-row"
                data-state={job.state}
                style={{ gridTemplateColumns: template, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                <input
                  type="checkbox"
                  aria-label={`Select ${job.jobName}`}
                  checked={selected.has(job.id!)}
                  onChange={(e) => {
                    const next = new Set(selected);
                    if (e.target.checked) next.add(job.id!);
                    else next.delete(job.id!);
                    setSelected(next);
                  }}
                />
                {shown.map((c) => (
                  <div key={c.id} className={`cell cell-${c.id}`}>
                    {c.render(job)}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
        {!jobs.isPending && rows.length === 0 && <p className="muted pad">No jobs.</p>}
      </div>
      <p className="muted">
        {rows.length} loaded{jobs.hasNextPage ? ", more below" : ""}
        {jobs.isFetching ? " · refreshing" : ""}
      </p>
    </section>
  );
}
