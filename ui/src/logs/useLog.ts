import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { api, unwrap, type LogLine } from "../api/client";

/** Lines per page fetched; lines are numbered 1, 2, … without gaps, so line n is in page ⌊(n-1)/PAGE⌋. */
export const PAGE = 1000;

/**
 * A job's log, fetched page by page as its stretches are looked at (never all of it), and followed live over
 * Server-Sent Events. EventSource reconnects by itself after a drop and sends Last-Event-ID, so the stream
 * resumes after the last line it delivered.
 */
export function useLog(jobId: string) {
  const pages = useRef(new Map<number, LogLine[]>());
  const fetched = useRef(new Set<number>());
  const [lastSeq, setLastSeq] = useState<number | null>(null);
  const [endState, setEndState] = useState<string | null>(null);
  const [connected, setConnected] = useState(false);
  const [version, changed] = useReducer((n: number) => n + 1, 0);

  const store = useCallback((lines: LogLine[]) => {
    for (const line of lines) {
      const seq = line.seq!;
      const index = Math.floor((seq - 1) / PAGE);
      let page = pages.current.get(index);
      if (!page) pages.current.set(index, (page = []));
      page[(seq - 1) % PAGE] = line;
    }
  }, []);

  const fetchPage = useCallback(
    async (index: number): Promise<LogLine[]> => {
      const page = await unwrap(
        api.GET("/jobs/{id}/logs", { params: { path: { id: jobId }, query: { after: index * PAGE, limit: PAGE } } }),
      );
      store(page.lines ?? []);
      fetched.current.add(index);
      setLastSeq((seq) => Math.max(seq ?? 0, page.lastSeq ?? 0));
      changed();
      return pages.current.get(index) ?? [];
    },
    [jobId, store],
  );

  // Learn how long the log is, then follow it from there.
  useEffect(() => {
    let source: EventSource | undefined;
    let closed = false;
    unwrap(api.GET("/jobs/{id}/logs", { params: { path: { id: jobId }, query: { after: 0, limit: 1 } } })).then(
      (first) => {
        if (closed) return;
        const last = first.lastSeq ?? 0;
        setLastSeq(last);
        source = new EventSource(`/jobs/${jobId}/logs/stream?after=${last}`);
        source.onopen = () => setConnected(true);
        source.onerror = () => setConnected(false);
        source.addEventListener("log", (event) => {
          const line = JSON.parse((event as MessageEvent).data) as LogLine;
          store([line]);
          setLastSeq((seq) => Math.max(seq ?? 0, line.seq!));
          changed();
        });
        source.addEventListener("end", (event) => {
          setEndState(JSON.parse((event as MessageEvent).data).state);
          setConnected(false);
          source?.close();
        });
      },
    );
    return () => {
      closed = true;
      source?.close();
    };
  }, [jobId, store]);

  /** Fetches the pages holding rows [from, to] (0-based) that were not fetched yet. */
  const ensure = useCallback(
    (from: number, to: number) => {
      for (let index = Math.floor(from / PAGE); index <= Math.floor(to / PAGE); index++) {
        if (!fetched.current.has(index)) {
          fetched.current.add(index);
          fetchPage(index).catch(() => fetched.current.delete(index));
        }
      }
    },
    [fetchPage],
  );

  const line = useCallback(
    (row: number): LogLine | undefined => pages.current.get(Math.floor(row / PAGE))?.[row % PAGE],
    [],
  );

  /** A page's lines, fetched if they are not here yet. */
  const page = useCallback(
    async (index: number) =>
      fetched.current.has(index) && pages.current.get(index)?.length === PAGE
        ? pages.current.get(index)!
        : fetchPage(index),
    [fetchPage],
  );

  // One object while nothing in it changes: a new `version` (lines stored) makes a new one.
  return useMemo(
    () => ({ lastSeq, endState, connected, version, ensure, line, page }),
    [lastSeq, endState, connected, version, ensure, line, page],
  );
}
