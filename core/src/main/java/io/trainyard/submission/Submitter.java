package io.trainyard.submission;

/**
 * Who submits a job, as far as the submission needs to know: the name stored on the job (and scoping its
 * Idempotency-Key), and whether configs may be read from remote stores ({@code gs://}) with the server's own
 * credentials for them, which is their project's decision; and the client's address, for the audit trail.
 */
public record Submitter(String name, boolean remoteConfigsAllowed, String address) {
}
