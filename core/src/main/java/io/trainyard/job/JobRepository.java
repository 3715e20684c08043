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
     *
     * <p>That order needs no look at the whole queue. Within one priority the oldest job is the best, so the
     * best {@code limit} of the queue are among the oldest {@code limit} of each priority queued: the query walks
     * the distinct priorities down {@code jobs_queue_idx} (a skip scan, one index descent each), takes each one's
     * oldest from the same index and sorts those few. Sorting every queued row made each claim cost as much as
     * the queue was long, so a queue that grew faster than the dispatcher drained it (16 submitters of jobs the
     * dispatcher fails) slowed every claim further. The best are picked by id first, then locked; a row claimed
     * between the two steps fails the re-checked state and is left out.
     */
    @Query(value = """
            with recursive priorities(priority) as (
                (select priority from jobs where state = 'QUEUED' and backend = :backend order by priority desc limit 1)
                union all
                select (select queued.priority from jobs queued
                        where queued.state = 'QUEUED' and queued.backend = :backend and queued.priority < priorities.priority
                        order by queued.priority desc limit 1)
                from priorities where priorities.priority is not null)
            select * from jobs
            where state = 'QUEUED' and id in (
                select oldest.id from priorities cross join lateral (
                    select id, priority, queued_at from jobs
                    where state = 'QUEUED' and backend = :backend and priority = priorities.priority
                        and (not_before is null or not_before <= now())
                    order by queued_at, id
                    limit :limit) oldest
                order by oldest.priority + extract(epoch from now() - oldest.queued_at) / :ageingSeconds desc, oldest.queued_at,
                    oldest.id
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
