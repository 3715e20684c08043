/** What a comparison is: the jobs it shows, named in its address so it can be linked, and the tags they share. */

/** The most jobs one comparison shows: as many as the server's TensorBoard comparison takes. */
export const MAX_COMPARED = 20;

/** The Compare page of these jobs: `/ui/compare?jobs=a,b,c` (commas kept readable). */
export function compareHref(jobIds: string[]): string {
  return `/ui/compare?jobs=${jobIds.map(encodeURIComponent).join(",")}`;
}

/** The server's TensorBoard comparing the same jobs (it redirects to `/tensorboards/a,b,c/`). */
export function tensorBoardHref(jobIds: string[]): string {
  return `/tensorboard?jobs=${jobIds.map(encodeURIComponent).join(",")}`;
}

/** The job ids of a `jobs=a,b,c` parameter, in their order, each once. */
export function parseJobIds(value: string | null): string[] {
  const ids = (value ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "");
  return [...new Set(ids)];
}

export interface SharedTags {
  /** Tags every job has, by name: one chart each. */
  common: string[];
  /** Tags only some of the jobs have, with how many. */
  partial: { tag: string; jobs: number }[];
}

/** Which tags the jobs share, given each job's tags, in the order they first appear. */
export function sharedTags(tagsPerJob: string[][]): SharedTags {
  const counts = new Map<string, number>();
  for (const tags of tagsPerJob) {
    for (const tag of new Set(tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  const names = [...counts.keys()];
  return {
    common: names.filter((tag) => counts.get(tag) === tagsPerJob.length),
    partial: names
      .filter((tag) => counts.get(tag)! < tagsPerJob.length)
      .map((tag) => ({ tag, jobs: counts.get(tag)! })),
  };
}

/** The jobs' names as a chart's legend shows them: a name two jobs share gets each job's id prefix. */
export function jobLabels(jobs: { id: string; name: string }[]): string[] {
  return jobs.map((job) =>
    jobs.filter((other) => other.name === job.name).length > 1 ? `${job.name} (${job.id.slice(0, 8)})` : job.name,
  );
}
