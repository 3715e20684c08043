package io.trainyard.job;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** One state change of a job, appended in the same transaction as the change itself. */
@Entity
@Table(name = "job_events")
public class JobEvent {

    // Ids come from the table's sequence 50 at a time, so appending an event costs no extra round trip.
    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "job_events_id")
    @SequenceGenerator(name = "job_events_id", sequenceName = "job_events_id_seq", allocationSize = 50)
    private Long id;

    @Column(name = "job_id", nullable = false)
    private UUID jobId;

    private int attempt;

    @Enumerated(EnumType.STRING)
    @Column(name = "from_state")
    private JobState fromState;

    @Enumerated(EnumType.STRING)
    @Column(name = "to_state", nullable = false)
    private JobState toState;

    @Enumerated(EnumType.STRING)
    private FailureCause cause;

    private String message;

    @Column(nullable = false)
    private Instant at;

    protected JobEvent() {
    }

    JobEvent(UUID jobId, int attempt, JobState fromState, JobState toState, FailureCause cause, String message,
            Instant at) {
        this.jobId = jobId;
        this.attempt = attempt;
        this.fromState = fromState;
        this.toState = toState;
        this.cause = cause;
        this.message = message;
        this.at = at;
    }

    public Long getId() {
        return id;
    }

    public UUID getJobId() {
        return jobId;
    }

    public int getAttempt() {
        return attempt;
    }

    public JobState getFromState() {
        return fromState;
    }

    public JobState getToState() {
        return toState;
    }

    public FailureCause getCause() {
        return cause;
    }

    public String getMessage() {
        return message;
    }

    public Instant getAt() {
        return at;
    }
}
