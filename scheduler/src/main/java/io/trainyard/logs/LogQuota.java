package io.trainyard.logs;

import java.util.ArrayList;
import java.util.List;

/**
 * The cap on lines stored for one attempt of a job: past it one marker line takes the place of the first
 * line over it and later lines are dropped, so a runaway trainer cannot fill the database.
 */
public record LogQuota(long linesPerAttempt) {

    /**
     * The lines to store of {@code lines} arriving after {@code accepted} lines of the attempt were taken
     * (the marker counts as one): all of them under the quota, the marker in place of the first over it,
     * nothing after.
     */
    public List<PendingLine> admit(long accepted, List<PendingLine> lines) {
        List<PendingLine> admitted = new ArrayList<>(lines.size());
        for (PendingLine line : lines) {
            if (accepted < linesPerAttempt) {
                admitted.add(line);
            } else if (accepted == linesPerAttempt) {
                admitted.add(new PendingLine(line.time(), LogStream.STDERR, line.rank(),
                        "[trainyard] this attempt reached its log quota of " + linesPerAttempt + " lines; later output "
                                + "is not stored (it stays in the worker's output file on its host)",
                        line.source(), line.offsetAfter()));
            } else {
                break;
            }
            accepted++;
        }
        return admitted;
    }

    /** Whether an attempt that has taken {@code accepted} lines stores no more. */
    public boolean isReached(long accepted) {
        return accepted > linesPerAttempt;
    }
}
