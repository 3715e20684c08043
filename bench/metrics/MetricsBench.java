import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.MetricSeriesView;
import io.trainyard.client.model.MetricTagView;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.TrainyardClient;

/**
 * Metrics benchmark against a running server: a job whose trainer drops a ready event file of POINTS scalars
 * (written by PyTorch's SummaryWriter) into its TensorBoard folder; the server's agent reads and ships it. Prints
 * points/s from the job running to every point stored, then the latency of reading the series downsampled to
 * 1,000 points (timed over raw HTTP, so that the figure is the server's, not a client's decoding).
 * Usage: java -cp ... MetricsBench.java <server url> <event file> <points> <queries>
 */
public class MetricsBench {

    public static void main(String[] args) throws Exception {
        TrainyardClient api = new TrainyardClient(args[0], System.getenv().getOrDefault("TRAINYARD_TOKEN", ""));
        String eventFile = args[1];
        long points = Long.parseLong(args[2]);
        int queries = Integer.parseInt(args[3]);

        String program = """
                import os, shutil
                os.makedirs("outputs/tensorboard", exist_ok=True)
                shutil.copy("%s", "outputs/tensorboard/events.out.tfevents.bench")
                """.formatted(eventFile);
        JobSubmission body = JobBodies.job("metrics_bench", program);
        JobBodies.writingTensorBoard(body);
        UUID id = api.submit(body).getId();
        api.awaitJob(id, job -> !List.of(Job.StateEnum.QUEUED, Job.StateEnum.STARTING).contains(job.getState()), Duration.ofMinutes(2));
        long started = System.nanoTime();
        Eventually.await("all points stored", () -> stored(api, id) == points, Duration.ofMinutes(10));
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("ingest: %,d points in %.2f s from the job running to every point stored: %,.0f points/s%n",
                points, seconds, points / seconds);

        MetricSeriesView first = api.metrics().getJobMetricSeries(id, "train/loss", null, null, 1000);
        System.out.printf("series: %d of %,d points returned (downsampled: %s)%n", first.getPoints().size(),
                first.getTotalPoints(), first.getDownsampled());
        RawHttpClient http = api.raw();
        String series = "/jobs/" + id + "/metrics/series?tag=train/loss&maxPoints=1000";
        for (int i = 0; i < 20; i++) {
            http.get(series);
        }
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < queries; i++) {
            long t = System.nanoTime();
            RawHttpClient.Response response = http.get(series);
            millis.add((System.nanoTime() - t) / 1e6);
            if (response.status() != 200) {
                throw new AssertionError("series answered " + response.status());
            }
        }
        Collections.sort(millis);
        System.out.printf("query (1,000-point series of %,d points, %d requests): p50 %.1f ms, p99 %.1f ms%n", points,
                queries, millis.get(queries / 2), millis.get((int) Math.ceil(queries * 0.99) - 1));
    }

    private static long stored(TrainyardClient api, UUID id) throws ApiException {
        return api.metrics().listJobMetrics(id).stream().mapToLong(MetricTagView::getPoints).findFirst().orElse(0);
    }
}
