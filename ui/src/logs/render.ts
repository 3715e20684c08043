import { AnsiUp } from "ansi_up";
import type { LogLine } from "../api/client";

// eslint-disable-next-line no-control-regex -- ESC (\u001b) starts the ANSI sequences this removes
const ESCAPES = /\u001b\[[0-9;]*[A-Za-z]/g;

/**
 * What the downloaded log puts before a line: its rank (nothing for rank 0 of a job on one host), and the agent
 * that ran it when the job spans agents.
 */
export function linePrefix(line: Pick<LogLine, "rank" | "host">): string {
  if (line.host) return `[rank ${line.rank} on ${line.host}] `;
  return line.rank ? `[rank ${line.rank}] ` : "";
}

/** The line without its ANSI escape sequences: what search matches against. */
export function plainText(text: string): string {
  return text.replace(ESCAPES, "");
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}

/**
 * A log line as HTML: ANSI colours turned into styled spans (ansi_up escapes everything else), and every
 * occurrence of `search` wrapped in <mark>, looking only at text between tags.
 */
export function lineHtml(text: string, search: string): string {
  // A converter per line: colours must not leak from one line into whichever line is rendered next.
  const html = new AnsiUp().ansi_to_html(text);
  if (!search) return html;
  const needle = escapeHtml(search).toLowerCase();
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith("<")) return part;
      let out = "";
      let from = 0;
      const lower = part.toLowerCase();
      for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
        out += part.slice(from, at) + "<mark>" + part.slice(at, at + needle.length) + "</mark>";
        from = at + needle.length;
      }
      return out + part.slice(from);
    })
    .join("");
}
