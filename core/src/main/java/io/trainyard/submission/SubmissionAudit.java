package io.trainyard.submission;

import java.util.List;

/**
 * The audit trail's records of stored submissions, written in the transaction that stores their jobs: a submission
 * then needs no commit of its own for its record (under load, half the transactions a submission cost), and no job
 * is stored without its record, as one could be when a server died between two commits. The security module's audit
 * log is the implementation; a server without one records nothing here.
 */
public interface SubmissionAudit {

    /** The audit trail's name for a submission. */
    String ACTION = "job.submit";

    /** Writes, in the caller's transaction, a record of each stored submission. */
    void recordStored(List<SubmissionService.Stored> stored);
}
