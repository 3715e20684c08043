import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.trainyard.testing.ApiClient;
import io.trainyard.testing.JobBodies;
import tools.jackson.databind.JsonNode;

/**
 * Metrics benchmark against a running server: a job whose trainer drops a ready event file of POINTS scalars
 * (written by PyTorch's SummaryWriter) into its TensorBoard folder; the server's agent reads and ships it. Prints
 * points/s from the job running to every point stored, then the latency of reading the series downsampled to
 * 1,000 points.
 * Usage: java -cp ... MetricsBench.java <server url> <event file> <points> <queries>
 */
public class MetricsBench {

    public static void main(String[] args) throws Exception {
        ApiClient api = new ApiClient(args[0], System.getenv().getOrDefault("TRAINYARD_TOKEN", ""));
        String eventFile = args[1];
        long points = Long.parseLong(args[2]);
        int queries = Integer.parseInt(args[3]);

        String program = """
                import os, shutil
                os.makedirs("outputs/tensorboard", exist_ok=True)
                shutil.copy("%s", "outputs/tensorboard/events.out.tfevents.bench")
                """.formatted(eventFile);
        Map<String, Object> body = JobBodies.job("metrics_bench", program);
        body.put("taskConfig", ((String) body.get("taskConfig")).replace("    trainedModelUri: outputs/model.pt\n",
                "    trainedModelUri: outputs/model.pt\n    tensorboardLogsUri: outputs/tensorboard\n"));
        String id = api.submit(body).body().get("id").asString();
        api.awaitJob(id, job -> !List.of("QUEUED", "STARTING").contains(job.get("state").asString()), Duration.ofMinutes(2));
        long started = System.nanoTime();
        ApiClient.await("all points stored", () -> stored(api, id) == points, Duration.ofMinutes(10));
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("ingest: %,d points in %.2f s from the job running to every point stored: %,.0f points/s%n",
                points, seconds, points / seconds);

        String series = "/jobs/" + id + "/metrics/series?tag=train/loss&maxPoints=1000";
        JsonNode first = api.get(series).body();
        System.out.printf("series: %d of %,d points returned (downsampled: %s)%n", first.get("points").size(),
                first.get("totalPoints").asLong(), first.get("downsampled").asBoolean());
        for (int i = 0; i < 20; i++) {
            api.get(series);
        }
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < queries; i++) {
            long t = System.nanoTime();
            ApiClient.Response response = api.get(series);
            millis.add((System.nanoTime() - t) / 1e6);
            if (response.status() != 200) {
                throw new AssertionError("series answered " + response.status());
            }
        }
        Collections.sort(millis);
        System.out.printf("query (1,000-point series of %,d points, %d requests): p50 %.1f ms, p99 %.1f ms%n", points,
                queries, millis.get(queries / 2), millis.get((int) Math.ceil(queries * 0.99) - 1));
    }

    private static long stored(ApiClient api, String id) {
        for (JsonNode tag : api.get("/jobs/" + id + "/metrics").body()) {
            return tag.get("points").asLong();
        }
        return 0;
    }
}
