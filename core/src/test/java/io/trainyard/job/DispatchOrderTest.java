package io.trainyard.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.trainyard.TrainyardTestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The dispatcher's claim takes the best queued jobs: priority plus a point per ageing period waited, the oldest on a tie. */
@SpringBootTest(classes = TrainyardTestApplication.class, properties = "trainyard.dispatcher.enabled=false")
class DispatchOrderTest {

    private static final String BACKEND = "dispatch-order";
    private static final double AGEING_SECONDS = 60;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TrainyardTestApplication.database(registry);
    }

    @Autowired
    JobTransitions transitions;
    @Autowired
    JobRepository jobs;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    PlatformTransactionManager transactionManager;

    /**
     * Several jobs share a priority among others: the claim picks each priority's oldest, and the best of the whole
     * queue must still come out in order, whatever the claim's size, never with a job backing off before its retry.
     */
    @Test
    void theClaimTakesTheBestOfTheWholeQueueInOrder() {
        // Each: priority, seconds waited; the score is the priority plus a point per 60 s waited.
        queue("low_but_oldest", -3, 1200);   // 17
        queue("plain_old", 0, 600);          // 10
        queue("high_waited", 5, 120);        // 7
        queue("middle", 2, 240);             // 6
        queue("high_new", 5, 0);             // 5
        queue("plain_recent", 0, 60);        // 1
        queue("plain_newest", 0, 30);        // 0.5
        queue("highest_backing_off", 9, 0);
        jdbc.update("update jobs set not_before = now() + interval '1 hour' where job_name = 'highest_backing_off'");
        queue("low_backing_off_less", -3, 0);
        jdbc.update("update jobs set not_before = now() + interval '1 minute' where job_name = 'low_backing_off_less'");

        List<String> best = List.of("low_but_oldest", "plain_old", "high_waited", "middle", "high_new", "plain_recent", "plain_newest");
        for (int limit : new int[] {1, 2, 4, 7, 16}) {
            assertThat(claim(limit)).as("a claim of %d", limit).containsExactlyElementsOf(best.subList(0, Math.min(limit, best.size())));
        }
        // The queue as listed is in the same order, with the jobs backing off last (the first to be ready first), and
        // as many as asked for.
        List<String> listed = new ArrayList<>(best);
        listed.add("low_backing_off_less");
        listed.add("highest_backing_off");
        assertThat(jobs.queuedInDispatchOrder(BACKEND, AGEING_SECONDS, 16)).extracting(Job::getJobName).containsExactlyElementsOf(listed);
        assertThat(jobs.queuedInDispatchOrder(BACKEND, AGEING_SECONDS, 7)).extracting(Job::getJobName).containsExactlyElementsOf(best);
    }

    private void queue(String name, int priority, int secondsWaited) {
        Job job = transitions.createAll(List.of(TestJobs.job(name, BACKEND, 1, 1))).getFirst();
        jdbc.update("update jobs set priority = ?, queued_at = now() - make_interval(secs => ?) where id = ?", priority, secondsWaited,
                job.getId());
    }

    /** The names of the jobs one claim of {@code limit} locks, in its order; rolled back, so every claim sees the same queue. */
    private List<String> claim(int limit) {
        return new TransactionTemplate(transactionManager).execute(status -> {
            status.setRollbackOnly();
            return jobs.lockQueued(BACKEND, AGEING_SECONDS, limit).stream().map(Job::getJobName).toList();
        });
    }
}
