package io.trainyard.job;

/**
 * The order in which the dispatcher takes a backend's queued jobs, as SQL shared by the claim and by the queue's
 * listing. "Best" is the priority plus one point per {@code :ageingSeconds} of waiting, so old jobs rise above a
 * stream of new ones; the oldest first on a tie. Jobs backing off before a retry ({@code not_before} ahead) are
 * not ready and left out.
 *
 * <p>That order needs no look at the whole queue. Within one priority the oldest job is the best, so the best
 * {@code :limit} of the queue are among the oldest {@code :limit} of each priority queued: the query walks the
 * distinct priorities down {@code jobs_queue_idx} (a skip scan, one index descent each), takes each one's oldest
 * from the same index and sorts those few. Sorting every queued row made each claim (and each listing of the
 * queue, which every submission's answer reads once a second) cost as much as the queue was long, so a queue that
 * grew faster than the dispatcher drained it (16 submitters of jobs the dispatcher fails) slowed the dispatcher
 * further: 78 ms of PostgreSQL a listing at 37,000 queued. The best are then fetched one by one by id (a lateral
 * join: one primary key lookup each), where the state is checked again: joined as a set, the planner, trusting
 * statistics taken when the queue was short, read the whole queue's index or every queued row to match them.
 */
final class DispatchOrder {

    /** The best {@code :limit} ready jobs of {@code :backend}, best first; the row's state is checked again for a claim. */
    static final String BEST_READY = """
            with recursive priorities(priority) as (
                (select priority from jobs where state = 'QUEUED' and backend = :backend order by priority desc limit 1)
                union all
                select (select queued.priority from jobs queued
                        where queued.state = 'QUEUED' and queued.backend = :backend and queued.priority < priorities.priority
                        order by queued.priority desc limit 1)
                from priorities where priorities.priority is not null),
            best as (
                select oldest.id, oldest.priority + extract(epoch from now() - oldest.queued_at) / :ageingSeconds as score,
                    oldest.queued_at
                from priorities cross join lateral (
                    select id, priority, queued_at from jobs
                    where state = 'QUEUED' and backend = :backend and priority = priorities.priority
                        and (not_before is null or not_before <= now())
                    order by queued_at, id
                    limit :limit) oldest
                order by score desc, oldest.queued_at, oldest.id
                limit :limit)
            select job.* from best cross join lateral (select * from jobs where id = best.id and state = 'QUEUED') job
            order by best.score desc, best.queued_at, best.id""";

    private DispatchOrder() {
    }
}
