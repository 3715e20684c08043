import { useEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { LogLine } from "../api/client";
import { lineHtml, linePrefix, plainText } from "./render";
import { PAGE, useLog } from "./useLog";

const LINE_HEIGHT = 18;

interface Filter {
  rank: string;
  stream: string;
}

function matchesFilter(line: LogLine, filter: Filter): boolean {
  return (
    (filter.rank === "" || String(line.rank) === filter.rank) && (filter.stream === "" || line.stream === filter.stream)
  );
}

/**
 * A job's log: a virtualised list (only the visible lines are in the page), fetched a page at a time as it is
 * scrolled, followed live, filtered by rank and stream, searched with highlighted matches.
 */
export function LogViewer({ jobId, workers }: { jobId: string; workers: number }) {
  const log = useLog(jobId);
  const [filter, setFilter] = useState<Filter>({ rank: "", stream: "" });
  const [search, setSearch] = useState("");
  const [current, setCurrent] = useState<number | null>(null);
  const [searchNote, setSearchNote] = useState("");
  const [follow, setFollow] = useState(true);
  const [downloading, setDownloading] = useState<string | null>(null);
  const filtering = filter.rank !== "" || filter.stream !== "";
  const total = log.lastSeq ?? 0;

  // Filtered, the rows are the matching lines of the pages read so far, in order; more pages are read as the
  // list is scrolled towards its end.
  const [scannedPages, setScannedPages] = useState(0);
  useEffect(() => setScannedPages(0), [filter.rank, filter.stream]);
  const filtered = useMemo(() => {
    if (!filtering) return [];
    const rows: LogLine[] = [];
    for (let row = 0; row < Math.min(total, scannedPages * PAGE); row++) {
      const line = log.line(row);
      if (line && matchesFilter(line, filter)) rows.push(line);
    }
    return rows;
  }, [filtering, filter, scannedPages, total, log]);
  const morePages = scannedPages * PAGE < total;
  const count = filtering ? filtered.length : total;
  const rowLine = (row: number) => (filtering ? filtered[row] : log.line(row));

  const scroller = useRef<HTMLDivElement>(null);
  // The React Compiler, which the build does not run, would leave this component unmemoised; nothing memoised is
  // handed the virtualizer's functions.
  // eslint-disable-next-line react-hooks/incompatible-library -- it reports what the compiler would skip, not a fault
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 40,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;

  useEffect(() => {
    if (!filtering && count > 0) log.ensure(first, last);
  }, [filtering, first, last, count, log]);
  const scanning = useRef(false);
  useEffect(() => {
    if (filtering && morePages && last >= filtered.length - 100 && !scanning.current) {
      scanning.current = true; // one page at a time, in order
      log
        .page(scannedPages)
        .then(() => setScannedPages((n) => n + 1))
        .finally(() => (scanning.current = false));
    }
  }, [filtering, morePages, last, filtered.length, scannedPages, log]);
  useEffect(() => {
    if (follow && count > 0) virtualizer.scrollToIndex(count - 1, { align: "end" });
  }, [follow, count, virtualizer]);

  /** The next (or previous) line containing the search, reading further pages of the log as needed. */
  async function step(direction: 1 | -1) {
    if (!search) return;
    setFollow(false);
    const needle = search.toLowerCase();
    const found = (line?: LogLine) =>
      line !== undefined &&
      plainText(line.text ?? "")
        .toLowerCase()
        .includes(needle);
    let row = (current ?? (direction > 0 ? -1 : count)) + direction;
    if (filtering) {
      while (row >= 0 && row < filtered.length && !found(filtered[row])) row += direction;
    } else {
      while (row >= 0 && row < total) {
        const lines = await log.page(Math.floor(row / PAGE));
        const end =
          direction > 0 ? Math.min(total, (Math.floor(row / PAGE) + 1) * PAGE) : Math.floor(row / PAGE) * PAGE - 1;
        for (; row !== end && !found(lines[row % PAGE]); row += direction);
        if (row !== end) break;
      }
    }
    if (row >= 0 && row < count) {
      setCurrent(row);
      setSearchNote(`line ${rowLine(row)?.seq ?? row + 1}`);
      virtualizer.scrollToIndex(row, { align: "center" });
    } else {
      setSearchNote(direction > 0 ? "no more matches below" : "no more matches above");
    }
  }

  /** The whole log as a text file, read page by page. */
  async function download() {
    const parts: string[] = [];
    for (let index = 0; index * PAGE < total; index++) {
      setDownloading(`${Math.round(((index * PAGE) / Math.max(total, 1)) * 100)}%`);
      const lines = await log.page(index);
      parts.push(lines.map((line) => `${linePrefix(line)}${plainText(line.text ?? "")}\n`).join(""));
    }
    const url = URL.createObjectURL(new Blob(parts, { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `${jobId}.log`;
    link.click();
    URL.revokeObjectURL(url);
    setDownloading(null);
  }

  return (
    <div className="log-viewer">
      <div className="log-toolbar">
        <select aria-label="Rank" value={filter.rank} onChange={(e) => setFilter({ ...filter, rank: e.target.value })}>
          <option value="">all ranks</option>
          {Array.from({ length: Math.max(workers, 1) }, (_, rank) => (
            <option key={rank} value={rank}>
              rank {rank}
            </option>
          ))}
        </select>
        <select
          aria-label="Stream"
          value={filter.stream}
          onChange={(e) => setFilter({ ...filter, stream: e.target.value })}
        >
          <option value="">stdout and stderr</option>
          <option value="stdout">stdout</option>
          <option value="stderr">stderr</option>
        </select>
        <input
          aria-label="Search the log"
          placeholder="search"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setCurrent(null);
            setSearchNote("");
          }}
          onKeyDown={(e) => e.key === "Enter" && step(e.shiftKey ? -1 : 1)}
        />
        <button onClick={() => step(-1)} disabled={!search} aria-label="Previous match">
          ↑ Previous
        </button>
        <button onClick={() => step(1)} disabled={!search} aria-label="Next match">
          ↓ Next
        </button>
        <span className="muted search-note">{searchNote}</span>
        <button
          onClick={() => {
            setFollow(false);
            virtualizer.scrollToIndex(0);
          }}
        >
          ⇤ Start
        </button>
        <button onClick={() => virtualizer.scrollToIndex(count - 1, { align: "end" })}>End ⇥</button>
        <label>
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow
        </label>
        <button onClick={download} disabled={downloading !== null || total === 0}>
          {downloading ? `Downloading ${downloading}` : "Download"}
        </button>
        <span className="muted" data-testid="log-status">
          {total.toLocaleString()} lines ·{" "}
          {log.endState ? `ended ${log.endState}` : log.connected ? "live" : "connecting…"}
        </span>
      </div>
      <div ref={scroller} className="log-lines" data-testid="log-lines" onWheel={() => setFollow(false)}>
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {items.map((item) => {
            const line = rowLine(item.index);
            return (
              <div
                key={item.index}
                className={`log-line ${line?.stream === "stderr" ? "stderr" : ""} ${item.index === current ? "current" : ""}`}
                style={{ height: LINE_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                <span className="seq">{line?.seq ?? item.index + 1}</span>
                {workers > 1 && (
                  <span className="rank" title={line?.host ? `rank ${line.rank} on ${line.host}` : undefined}>
                    {line ? `r${line.rank}` : ""}
                  </span>
                )}
                {line ? (
                  <span className="text" dangerouslySetInnerHTML={{ __html: lineHtml(line.text ?? "", search) }} />
                ) : (
                  <span className="muted">…</span>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
