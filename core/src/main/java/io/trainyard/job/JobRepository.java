package io.trainyard.job;

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
     * Locks up to {@code limit} queued jobs of a backend, best first, skipping rows another server is
     * claiming right now: two replicas on one database never claim the same job. "Best" is the priority
     * plus one point per {@code ageingSeconds} of waiting, so old jobs rise above a stream of new ones.
     * The best are picked by id first, then locked: sorting the queue's ids alone is a small in-memory
     * top-N sort, where locking while sorting made PostgreSQL sort every queued row whole (on disk, at
     * 10,000 queued jobs). A row claimed between the two steps fails the re-checked state and is left out.
     */
    @Query(value = """
            select * from jobs
            where state = 'QUEUED' and id in (
                select id from jobs
                where state = 'QUEUED' and backend = :backend and (not_before is null or not_before <= now())
                order by priority + extract(epoch from now() - queued_at) / :ageingSeconds desc, queued_at, id
                limit :limit)
            order by priority + extract(epoch from now() - queued_at) / :ageingSeconds desc, queued_at, id
            for update skip locked""", nativeQuery = true)
    List<Job> lockQueued(@Param("backend") String backend, @Param("ageingSeconds") double ageingSeconds,
            @Param("limit") int limit);

    /**
     * The backend's queued jobs in the order the dispatcher takes them (as {@link #lockQueued}), without locking;
     * jobs backing off before a retry come last.
     */
    @Query(value = """
            select * from jobs
            where state = 'QUEUED' and backend = :backend
            order by (not_before is not null and not_before > now()),
                priority + extract(epoch from now() - queued_at) / :ageingSeconds desc, queued_at, id
            limit :limit""", nativeQuery = true)
    List<Job> queuedInDispatchOrder(@Param("backend") String backend, @Param("ageingSeconds") double ageingSeconds,
            @Param("limit") int limit);
}
