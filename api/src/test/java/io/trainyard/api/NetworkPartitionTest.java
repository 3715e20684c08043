package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobEvent;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.LogLine;
import io.trainyard.client.model.RetryPolicy;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.NamespacedPool;
import io.trainyard.testing.NetworkNamespaces;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Network partitions between real hosts: two agents, each in a network namespace of its own joined to the
 * server's by a veth pair, one of them cut off by taking its link down. A cut shorter than a lease goes
 * unnoticed by the job; a longer one moves it to the other host, and the old trainer is gone (the agent fenced
 * itself) before the new attempt writes its first output.
 */
class NetworkPartitionTest {

    private static final String[] LEASE = {"--trainyard.agent.heartbeat-interval=500ms", "--trainyard.agent.lease=5s"};

    @TempDir
    Path dataDir;

    private NamespacedPool pool;

    @BeforeEach
    void hosts() throws Exception {
        String unavailable = NetworkNamespaces.unavailableBecause();
        assumeTrue(unavailable == null, "skipped: " + unavailable);
        // Unconfined trainers: they record when they run in one file of the test's, outside their work folders.
        pool = NamespacedPool.start(dataDir, "partition-server", List.of(LEASE), "host", 10, 2,
                host -> List.of("--cpu-slots=1", "--trainer-isolation=none"));
    }

    @AfterEach
    void removeHosts() throws Exception {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void aCutShorterThanALeaseGoesUnnoticedAndTheLogIsComplete() throws Exception {
        TrainyardClient api = pool.api();
        String program = "import time\nfor i in range(1, 301):\n    print('line', i, flush=True)\n    time.sleep(0.03)\n";
        UUID id = api.submit(JobBodies.job("cut_briefly", program)).getId();
        Job running = api.awaitState(id, Job.StateEnum.RUNNING, Duration.ofSeconds(60));
        String host = running.getNode();

        Thread.sleep(1_000);
        pool.network().cut(host);
        Thread.sleep(2_500);
        pool.network().heal(host);

        Job job = api.awaitEnded(id, Duration.ofSeconds(90));
        assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
        assertThat(job.getAttempt()).isEqualTo(1);
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 300; i++) {
            expected.add("line " + i);
        }
        assertThat(api.logTexts(id)).containsExactlyElementsOf(expected);
    }

    @Test
    void aCutLongerThanALeaseMovesTheJobAndTheOldTrainerIsGoneBeforeTheNewOneWrites() throws Exception {
        TrainyardClient api = pool.api();
        Path ticks = dataDir.resolve("ticks.txt");
        // Each attempt appends "<attempt> <nanoseconds since the epoch>" to one file both hosts see (namespaces
        // share the file system), every 20 ms, for 8 s.
        String program = """
                import os, time
                attempt = os.environ['TRAINYARD_ATTEMPT']
                for i in range(1, 401):
                    with open(%s, 'a') as f:
                        f.write(attempt + ' ' + str(time.time_ns()) + '\\n')
                    print('attempt', attempt, 'tick', i, flush=True)
                    time.sleep(0.02)
                """.formatted("'" + ticks + "'");
        JobSubmission body = JobBodies.job("cut_for_long", program).retryPolicy(new RetryPolicy().maxAttempts(2).backoffSeconds(0));
        UUID id = api.submit(body).getId();
        Job running = api.awaitState(id, Job.StateEnum.RUNNING, Duration.ofSeconds(60));
        String host = running.getNode();

        Thread.sleep(1_000);
        pool.network().cut(host);
        api.awaitJob(id, job -> job.getAttempt() == 2, Duration.ofSeconds(30));
        Thread.sleep(4_000);
        pool.network().heal(host);

        Job job = api.awaitEnded(id, Duration.ofSeconds(90));
        assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
        assertThat(job.getAttempt()).isEqualTo(2);
        assertThat(job.getNode()).isNotEqualTo(host);
        long lastOfFirst = 0;
        long firstOfSecond = Long.MAX_VALUE;
        for (String line : Files.readAllLines(ticks)) {
            String[] words = line.split(" ");
            long at = Long.parseLong(words[1]);
            if (words[0].equals("1")) {
                lastOfFirst = Math.max(lastOfFirst, at);
            } else {
                firstOfSecond = Math.min(firstOfSecond, at);
            }
        }
        assertThat(lastOfFirst).as("the first attempt's last output").isLessThan(firstOfSecond);
        List<String> second = api.logs().getJobLogs(id, null, 10_000).getLines().stream()
                .filter(line -> line.getAttempt() == 2).map(LogLine::getText).toList();
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 400; i++) {
            expected.add("attempt 2 tick " + i);
        }
        assertThat(second).containsExactlyElementsOf(expected);
        assertThat(api.jobs().listJobEvents(id)).extracting(JobEvent::getMessage)
                .anyMatch(message -> message != null && message.contains(host) && message.contains("lease"));
    }
}
