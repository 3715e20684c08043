package io.trainyard.logs;

import java.util.ArrayList;
import java.util.List;

import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.OutputLine;

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
    public List<OutputLine> admit(long accepted, List<OutputLine> lines) {
        List<OutputLine> admitted = new ArrayList<>(lines.size());
        for (OutputLine line : lines) {
            if (accepted < linesPerAttempt) {
                admitted.add(line);
            } else if (accepted == linesPerAttempt) {
                admitted.add(new OutputLine(line.timeMicros(), LogStream.STDERR, line.rank(),
                        "[trainyard] this attempt reached its log quota of " + linesPerAttempt + " lines; later output "
                                + "is not stored (it stays in the worker's output file on its host)"));
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
