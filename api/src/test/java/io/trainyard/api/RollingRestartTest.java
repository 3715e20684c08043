package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.trainyard.testing.ApiClient;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.ServerProcess;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TestJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A rolling restart of two replicas on one PostgreSQL while 200 short jobs run through both: each replica is
 * stopped with SIGTERM and started again in turn, then one is killed with SIGKILL and started again. Every job
 * ends once, SUCCEEDED, with its complete log, and no job ever runs in two processes at once (each trainer
 * writes a start and an end record).
 */
class RollingRestartTest {

    private static final int JOBS = 200;
    // Longer than a replica takes to start again on a loaded machine, so its agent re-attaches to its runs.
    // Two slots each: the 200 jobs (2 s each) take longer than the three restarts, so they run through all of them.
    private static final List<String> SETTINGS = List.of("--trainyard.agent.lease=60s", "--trainyard.local.cpu-slots=2");

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
            ApiClient[] apis = {replicas[0].api(), replicas[1].api().withToken(token)};
            // Jobs are submitted all through the restarts, each to whichever replica takes it.
            List<String> ids = java.util.Collections.synchronizedList(new ArrayList<>());
            Thread submitter = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < JOBS; i++) {
                    ids.add(submit(apis, i, JobBodies.job("rolling_" + i, program)));
                }
            });
            ApiClient.await("the first jobs submitted", () -> ids.size() >= JOBS / 10, Duration.ofMinutes(2));

            replicas[0].stop();
            replicas[0] = start(database, ports, 0);
            replicas[1].stop();
            replicas[1] = start(database, ports, 1);
            replicas[0].kill();
            replicas[0] = start(database, ports, 0);

            submitter.join();
            awaitEnded(apis[1], JOBS);
            List<JsonNode> ended = new ArrayList<>();
            for (String id : ids) {
                ended.add(apis[1].job(id));
            }
            assertThat(ended).allSatisfy(job -> assertThat(job.get("state").asString()).as(job.toString()).isEqualTo("SUCCEEDED"));
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= 40; i++) {
                expected.add("line " + i);
            }
            for (JsonNode job : ended) {
                String id = job.get("id").asString();
                int attempt = job.get("attempt").asInt();
                List<String> lines = new ArrayList<>();
                apis[1].get("/jobs/" + id + "/logs?limit=10000").body().get("lines").forEach(line -> {
                    if (line.get("attempt").asInt() == attempt) {
                        lines.add(line.get("text").asString());
                    }
                });
                assertThat(lines).as("the log of %s", id).containsExactlyElementsOf(expected);
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
    private static String submit(ApiClient[] apis, int number, Map<String, Object> body) {
        for (int attempt = 0; ; attempt++) {
            try {
                ApiClient.Response created = apis[(number + attempt) % 2].post("/jobs", body, "Idempotency-Key", "rolling-" + number);
                if (created.status() == 201 || created.status() == 200) {
                    return created.body().get("id").asString();
                }
            } catch (AssertionError replicaDown) {
                // connection refused: the other replica takes it
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
    private static void awaitEnded(ApiClient api, int count) {
        ApiClient.await(count + " jobs ending", () -> api.get("/jobs?state=SUCCEEDED&state=FAILED&state=CANCELLED&limit=500")
                .body().get("jobs").size() >= count, Duration.ofMinutes(6));
    }

    /**
     * Each trainer process wrote "start" when it began and "end" when it finished: a job's processes must never
     * overlap, and an attempt without an end (killed) must not be followed by one that started before it could
     * have been killed, which the records cannot tell, so it counts as an overlap.
     */
    private static void assertNoJobRanTwiceAtOnce(Path records, List<String> ids) throws Exception {
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
        assertThat(runs.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        runs.forEach((job, intervals) -> {
            intervals.sort((x, y) -> Long.compare(x[0], y[0]));
            for (int i = 1; i < intervals.size(); i++) {
                assertThat(intervals.get(i)[0]).as("job %s: attempts overlap", job).isGreaterThan(intervals.get(i - 1)[1]);
            }
        });
    }
}
