package io.trainyard.job;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.LockModeType;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface JobRepository extends JpaRepository<Job, UUID> {

    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select j from Job j where j.id = :id")
    Optional<Job> lockById(@Param("id") UUID id);

    Optional<Job> findBySubmittedByAndIdempotencyKey(String submittedBy, String idempotencyKey);

    List<Job> findByNodeIdAndStateIn(String nodeId, Collection<JobState> states);

    List<Job> findByStateIn(Collection<JobState> states);

    /**
     * Locks up to {@code limit} queued jobs of a backend ready to start, best first ({@link DispatchOrder}),
     * skipping rows another server is claiming right now: two replicas on one database never claim the same job.
     * The best are picked by id first, then locked; a row claimed between the two steps fails the re-checked
     * state and is left out.
     */
    @Query(value = DispatchOrder.BEST_READY + " for update of job skip locked", nativeQuery = true)
    List<Job> lockQueued(@Param("backend") String backend, @Param("ageingSeconds") double ageingSeconds,
            @Param("limit") int limit);

    /** Up to {@code limit} queued jobs of a backend ready to start, in the order the dispatcher takes them, unlocked. */
    @Query(value = DispatchOrder.BEST_READY, nativeQuery = true)
    List<Job> readyInDispatchOrder(@Param("backend") String backend, @Param("ageingSeconds") double ageingSeconds,
            @Param("limit") int limit);

    /** Up to {@code limit} queued jobs of a backend backing off before a retry, the first to be ready first. */
    @Query(value = """
            select * from jobs
            where state = 'QUEUED' and backend = :backend and not_before is not null and not_before > now()
            order by not_before, id
            limit :limit""", nativeQuery = true)
    List<Job> backingOff(@Param("backend") String backend, @Param("limit") int limit);

    /**
     * Up to {@code limit} of the backend's queued jobs in the order the dispatcher takes them (as {@link #lockQueued}),
     * without locking; jobs backing off before a retry come last, the first to be ready first.
     */
    default List<Job> queuedInDispatchOrder(String backend, double ageingSeconds, int limit) {
        List<Job> queued = new ArrayList<>(readyInDispatchOrder(backend, ageingSeconds, limit));
        if (queued.size() < limit) {
            queued.addAll(backingOff(backend, limit - queued.size()));
        }
        return queued;
    }
}
