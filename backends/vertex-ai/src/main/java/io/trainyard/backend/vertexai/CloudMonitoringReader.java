package io.trainyard.backend.vertexai;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntFunction;

import com.google.cloud.monitoring.v3.MetricServiceClient;
import com.google.monitoring.v3.ListTimeSeriesRequest;
import com.google.monitoring.v3.Point;
import com.google.monitoring.v3.TimeInterval;
import com.google.monitoring.v3.TimeSeries;
import com.google.protobuf.Timestamp;
import io.trainyard.protocol.ScalarSeries;
import io.trainyard.protocol.ScalarSeriesBuilder;
import io.trainyard.protocol.SystemMetricNames;
import io.trainyard.scalars.SystemMetricStore;

/**
 * Copies what a CustomJob used of its machines into the job's system metrics, from Cloud Monitoring's training
 * metrics (resource {@code cloudml_job}): per replica, its CPU utilisation and memory in use, and its accelerators'
 * utilisation and memory, under the names local jobs' series have. Cloud Monitoring reports a replica's
 * accelerators together, so on Vertex AI {@code gpuN} is replica N's accelerators (N its rank), not one GPU.
 *
 * <p>Cloud Monitoring records a point a minute and makes it readable some time later: each read asks for the
 * points after the last one stored and before the settle time, so none is stored twice (the last stored time comes
 * from the store, also after a restart or on another replica) and one that arrives late is still read.
 */
final class CloudMonitoringReader {

    /** A Cloud Monitoring metric, and the series it becomes. */
    private record Metric(String type, IntFunction<String> tag, double scale) {
    }

    private static final List<Metric> METRICS = List.of(
            // A fraction of the machine's CPUs: 100 % is every core busy (a local job's is per core).
            new Metric("ml.googleapis.com/training/cpu/utilization",
                    rank -> SystemMetricNames.worker(rank, SystemMetricNames.CPU_PERCENT), 100),
            new Metric("ml.googleapis.com/training/memory/bytes_used",
                    rank -> SystemMetricNames.worker(rank, SystemMetricNames.RSS_BYTES), 1),
            new Metric("ml.googleapis.com/training/accelerator/utilization",
                    rank -> SystemMetricNames.gpu(rank, SystemMetricNames.UTILIZATION_PERCENT), 100),
            new Metric("ml.googleapis.com/training/accelerator/memory/bytes_used",
                    rank -> SystemMetricNames.gpu(rank, SystemMetricNames.MEMORY_USED_BYTES), 1));

    private final MetricServiceClient monitoring;
    private final QuotaLimiter reads;
    private final String project;
    private final String customJobId;
    private final UUID jobId;
    private final int attempt;
    private final Instant startedAt;
    private final SystemMetricStore store;
    private Instant readAfter;

    /** @param startedAt when Vertex AI started the CustomJob: a series' step is milliseconds since then */
    CloudMonitoringReader(MetricServiceClient monitoring, QuotaLimiter reads, String project, String customJobId, UUID jobId,
            int attempt, Instant startedAt, SystemMetricStore store) {
        this.monitoring = monitoring;
        this.reads = reads;
        this.project = project;
        this.customJobId = customJobId;
        this.jobId = jobId;
        this.attempt = attempt;
        this.startedAt = startedAt;
        this.store = store;
        Long lastStep = store.lastStep(jobId, attempt);
        this.readAfter = lastStep == null ? startedAt.minusMillis(1) : startedAt.plusMillis(lastStep);
    }

    /** Reads and stores every point after the last stored one, up to {@code until}; returns how many. */
    int readUntil(Instant until) throws InterruptedException {
        if (!until.isAfter(readAfter)) {
            return 0;
        }
        TimeInterval interval = TimeInterval.newBuilder().setStartTime(timestamp(readAfter)).setEndTime(timestamp(until)).build();
        Map<String, ScalarSeriesBuilder> series = new LinkedHashMap<>();
        Instant newest = readAfter;
        int points = 0;
        for (Metric metric : METRICS) {
            ListTimeSeriesRequest request = ListTimeSeriesRequest.newBuilder()
                    .setName("projects/" + project)
                    .setFilter("metric.type=\"" + metric.type() + "\" AND resource.type=\"cloudml_job\" AND resource.labels.job_id=\""
                            + customJobId + "\"")
                    .setInterval(interval)
                    .setView(ListTimeSeriesRequest.TimeSeriesView.FULL)
                    .build();
            String pageToken = "";
            do {
                MetricServiceClient.ListTimeSeriesPage page;
                try (QuotaLimiter.Permit permit = reads.acquire(project)) {
                    page = monitoring.listTimeSeries(request.toBuilder().setPageToken(pageToken).build()).getPage();
                }
                for (TimeSeries timeSeries : page.getValues()) {
                    String tag = metric.tag().apply(TaskRanks.of(taskName(timeSeries)));
                    // Cloud Monitoring answers a series' points newest first.
                    List<Point> inTimeOrder = new ArrayList<>(timeSeries.getPointsList());
                    inTimeOrder.sort(Comparator.comparingLong(point -> nanos(point.getInterval().getEndTime())));
                    for (Point point : inTimeOrder) {
                        Instant at = instant(point.getInterval().getEndTime());
                        if (!at.isAfter(readAfter) || at.isAfter(until)) {
                            continue;
                        }
                        double value = point.getValue().hasDoubleValue() ? point.getValue().getDoubleValue()
                                : point.getValue().getInt64Value();
                        series.computeIfAbsent(tag, name -> new ScalarSeriesBuilder(name, 0))
                                .add(Duration.between(startedAt, at).toMillis(), at.toEpochMilli() / 1000.0, value * metric.scale());
                        newest = at.isAfter(newest) ? at : newest;
                        points++;
                    }
                }
                pageToken = page.getNextPageToken();
            } while (pageToken != null && !pageToken.isEmpty());
        }
        List<ScalarSeries> built = series.values().stream().map(ScalarSeriesBuilder::build).toList();
        if (!built.isEmpty()) {
            store.append(jobId, attempt, built);
        }
        // The next read asks for what came after the newest point stored: a point of another series older than it,
        // made readable only later, would be missed, which the settle time is there to prevent.
        readAfter = newest;
        return points;
    }

    /** The replica a series is of: its {@code task_name} label (resource or metric), else rank 0's. */
    private static String taskName(TimeSeries timeSeries) {
        String name = timeSeries.getResource().getLabelsOrDefault("task_name", "");
        return name.isEmpty() ? timeSeries.getMetric().getLabelsOrDefault("task_name", "") : name;
    }

    private static Timestamp timestamp(Instant instant) {
        return Timestamp.newBuilder().setSeconds(instant.getEpochSecond()).setNanos(instant.getNano()).build();
    }

    private static Instant instant(Timestamp timestamp) {
        return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
    }

    private static long nanos(Timestamp timestamp) {
        return timestamp.getSeconds() * 1_000_000_000L + timestamp.getNanos();
    }
}
