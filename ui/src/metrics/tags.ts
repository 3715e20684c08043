import type { MetricTag } from "../api/client";

/**
 * The tags in the order the trainer began writing them (then by name): training curves first, then validation,
 * then what was written once at the end (the runtime's test/…), rather than alphabetically.
 */
export function inWrittenOrder(tags: MetricTag[]): MetricTag[] {
  return [...tags].sort((a, b) => a.firstStep - b.firstStep || a.tag.localeCompare(b.tag));
}
