package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.LogLine;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.ServerProcess;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TestJvm;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rolling restart of two replicas on one PostgreSQL while 200 short jobs run through both: each replica is
 * stopped with SIGTERM and started again in turn, then one is killed with SIGKILL and started again. Every job
 * ends once, SUCCEEDED, with its complete log, and no job ever runs in two processes at once (each trainer
 * writes a start and an end record).
 */
class RollingRestartTest {

    private static final int JOBS = 200;
    // Longer than a replica takes to start again on a loaded machine, so its agent re-attaches to its runs (60 s was
    // not, once, with two builds beside the test on 2 cores: a replica's own agent was declared lost mid-restart).
    // No job waits for a lease to run out here, so a longer one costs no time.
    // Two slots each: the 200 jobs (2 s each) take longer than the three restarts, so they run through all of them.
    // Unconfined trainers: each writes its start and end records to one file of the test's, outside its work folder,
    // which a sandboxed trainer cannot (TrainerIsolationTest covers the sandbox).
    private static final List<String> SETTINGS = List.of("--trainyard.agent.lease=120s", "--trainyard.local.cpu-slots=2",
            "--trainyard.local.trainer-isolation=none");

    @TempDir
    Path dataDir;

    @Test
    void everyJobEndsOnceWithItsCompleteLogThroughTwoRollingRestartsAndAKill() throws Exception {
        String database = TestDatabase.newDatabaseUrl();
        Path records = dataDir.resolve("records.txt");
        String program = """
                import os, time
                job, attempt = os.environ['TRAINYARD_JOB_ID'], os.environ['TRAINYARD_ATTEMPT']
                def record(what):
                    with open(%s, 'a') as f:
                        f.write(what + ' ' + job + ' ' + attempt + ' ' + str(time.time_ns()) + '\\n')
                record('start')
                for i in range(1, 41):
                    print('line', i, flush=True)
                    time.sleep(0.05)
                record('end')
                """.formatted("'" + records + "'");
        int[] ports = {TestJvm.freePort(), TestJvm.freePort()};
        ServerProcess[] replicas = new ServerProcess[2];
        replicas[0] = start(database, ports, 0);
        try {
            replicas[1] = start(database, ports, 1);
            String token = replicas[0].api().token();
            TrainyardClient[] apis = {replicas[0].api(), replicas[1].api().withToken(token)};
            // Jobs are submitted all through the restarts, each to whichever replica takes it.
            List<UUID> ids = java.util.Collections.synchronizedList(new ArrayList<>());
            Thread submitter = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < JOBS; i++) {
                    ids.add(submit(apis, i, JobBodies.job("rolling_" + i, program)));
                }
            });
            Eventually.await("the first jobs submitted", () -> ids.size() >= JOBS / 10, Duration.ofMinutes(2));

            replicas[0].stop();
            replicas[0] = start(database, ports, 0);
            replicas[1].stop();
            replicas[1] = start(database, ports, 1);
            replicas[0].kill();
            replicas[0] = start(database, ports, 0);

            submitter.join();
            awaitEnded(apis[1], JOBS);
            List<Job> ended = new ArrayList<>();
            for (UUID id : ids) {
                ended.add(apis[1].job(id));
            }
            assertThat(ended).allSatisfy(job -> assertThat(job.getState()).as(job.toString()).isEqualTo(Job.StateEnum.SUCCEEDED));
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= 40; i++) {
                expected.add("line " + i);
            }
            for (Job job : ended) {
                List<String> lines = apis[1].logs().getJobLogs(job.getId(), null, 10_000).getLines().stream()
                        .filter(line -> line.getAttempt().equals(job.getAttempt())).map(LogLine::getText).toList();
                assertThat(lines).as("the log of %s", job.getId()).containsExactlyElementsOf(expected);
            }
            assertNoJobRanTwiceAtOnce(records, ids);
        } finally {
            for (ServerProcess replica : replicas) {
                if (replica != null) {
                    replica.kill();
                }
            }
        }
    }

    /**
     * Submits to one replica after the other until one takes it; the Idempotency-Key makes a submission whose
     * answer was lost in a restart count once.
     */
    private static UUID submit(TrainyardClient[] apis, int number, JobSubmission body) {
        for (int attempt = 0; ; attempt++) {
            try {
                return apis[(number + attempt) % 2].jobs().submitJob(body, "rolling-" + number).getId();
            } catch (ApiException replicaDownOrStopping) {
                // connection refused or a refusal while it stops: the other replica takes it
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private ServerProcess start(String database, int[] ports, int replica) throws Exception {
        String node = replica == 0 ? "replica-a" : "replica-b";
        return ServerProcess.start(database, ports[replica], dataDir.resolve(node), node, SETTINGS);
    }

    /** Waits until at least {@code count} jobs ended (the test's are the database's only jobs). */
    private static void awaitEnded(TrainyardClient api, int count) {
        Eventually.await(count + " jobs ending", () -> api.jobs().listJobs(List.of("SUCCEEDED", "FAILED", "CANCELLED"), null, null,
                null, null, 500).getJobs().size() >= count, Duration.ofMinutes(6));
    }

    /**
     * Each trainer process wrote "start" when it began and "end" when it finished: a job's processes must never
     * overlap, and an attempt without an end (killed) must not be followed by one that started before it could
     * have been killed, which the records cannot tell, so it counts as an overlap.
     */
    private static void assertNoJobRanTwiceAtOnce(Path records, List<UUID> ids) throws Exception {
        Map<String, List<long[]>> runs = new HashMap<>();
        Map<String, Long> openStarts = new HashMap<>();
        for (String line : Files.readAllLines(records)) {
            String[] words = line.split(" ");
            String run = words[1] + " " + words[2];
            long at = Long.parseLong(words[3]);
            if (words[0].equals("start")) {
                assertThat(openStarts.put(run, at)).as("attempt %s started twice", run).isNull();
            } else {
                runs.computeIfAbsent(words[1], job -> new ArrayList<>()).add(new long[] {openStarts.remove(run), at});
            }
        }
        assertThat(openStarts).as("processes that started and never ended").isEmpty();
        assertThat(runs.keySet()).containsExactlyInAnyOrderElementsOf(ids.stream().map(UUID::toString).toList());
        runs.forEach((job, intervals) -> {
            intervals.sort((x, y) -> Long.compare(x[0], y[0]));
            for (int i = 1; i < intervals.size(); i++) {
                assertThat(intervals.get(i)[0]).as("job %s: attempts overlap", job).isGreaterThan(intervals.get(i - 1)[1]);
            }
        });
    }
}
