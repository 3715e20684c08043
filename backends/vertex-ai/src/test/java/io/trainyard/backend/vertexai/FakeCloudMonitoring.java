package io.trainyard.backend.vertexai;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.google.api.Metric;
import com.google.api.MonitoredResource;
import com.google.monitoring.v3.ListTimeSeriesRequest;
import com.google.monitoring.v3.ListTimeSeriesResponse;
import com.google.monitoring.v3.MetricServiceGrpc;
import com.google.monitoring.v3.Point;
import com.google.monitoring.v3.TimeInterval;
import com.google.monitoring.v3.TimeSeries;
import com.google.monitoring.v3.TypedValue;
import com.google.protobuf.Timestamp;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;

/**
 * A gRPC fake of Cloud Monitoring's {@code MetricService.ListTimeSeries} on a loopback port, for the real
 * {@code MetricServiceClient}. It holds points of the training metrics Vertex AI records for a CustomJob's replicas
 * (resource {@code cloudml_job}, labels {@code job_id} and {@code task_name}) and answers the filters they are read
 * with ({@code metric.type}, {@code resource.labels.job_id}) over the request's interval (start exclusive, end
 * inclusive), each series' points newest first, a series per page, as Cloud Monitoring does. Every listing is recorded.
 */
public final class FakeCloudMonitoring implements AutoCloseable {

    private static final Pattern METRIC_TYPE = Pattern.compile("metric\\.type=\"([^\"]*)\"");
    private static final Pattern JOB_ID = Pattern.compile("resource\\.labels\\.job_id=\"([^\"]*)\"");

    public final List<ListTimeSeriesRequest> listings = Collections.synchronizedList(new ArrayList<>());
    private final List<Recorded> points = new ArrayList<>();
    private final Server server;

    private record Recorded(String metricType, String customJobId, String taskName, Instant at, double value) {
    }

    public FakeCloudMonitoring() throws IOException {
        server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .addService(new Service()).build().start();
    }

    /** {@code host:port} of the fake, for {@code trainyard.vertex-ai.monitoring-endpoint}. */
    public String endpoint() {
        return "127.0.0.1:" + server.getPort();
    }

    /** Records a point of a replica's metric ({@code ml.googleapis.com/training/cpu/utilization}, say) at a time. */
    public synchronized void record(String metricType, String customJobId, String taskName, Instant at, double value) {
        points.add(new Recorded(metricType, customJobId, taskName, at, value));
    }

    private synchronized List<TimeSeries> matching(ListTimeSeriesRequest request) {
        Matcher type = METRIC_TYPE.matcher(request.getFilter());
        Matcher jobId = JOB_ID.matcher(request.getFilter());
        if (!type.find() || !jobId.find() || !request.getFilter().contains("resource.type=\"cloudml_job\"")) {
            throw Status.INVALID_ARGUMENT.withDescription("not a CustomJob's metric: " + request.getFilter()).asRuntimeException();
        }
        Instant start = instant(request.getInterval().getStartTime());
        Instant end = instant(request.getInterval().getEndTime());
        // The matching points by replica, each replica's newest first.
        Map<String, List<Recorded>> byTask = points.stream()
                .filter(point -> point.metricType().equals(type.group(1)) && point.customJobId().equals(jobId.group(1)))
                .filter(point -> point.at().isAfter(start) && !point.at().isAfter(end))
                .sorted(Comparator.comparing(Recorded::at).reversed())
                .collect(Collectors.groupingBy(Recorded::taskName, TreeMap::new, Collectors.toList()));
        List<TimeSeries> series = new ArrayList<>();
        byTask.forEach((task, recorded) -> series.add(TimeSeries.newBuilder()
                .setMetric(Metric.newBuilder().setType(type.group(1)))
                .setResource(MonitoredResource.newBuilder().setType("cloudml_job")
                        .putAllLabels(Map.of("job_id", jobId.group(1), "task_name", task)))
                .addAllPoints(recorded.stream()
                        .map(point -> Point.newBuilder()
                                .setInterval(TimeInterval.newBuilder().setEndTime(timestamp(point.at())))
                                .setValue(TypedValue.newBuilder().setDoubleValue(point.value()))
                                .build())
                        .toList())
                .build()));
        return series;
    }

    private static Instant instant(Timestamp timestamp) {
        return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
    }

    private static Timestamp timestamp(Instant instant) {
        return Timestamp.newBuilder().setSeconds(instant.getEpochSecond()).setNanos(instant.getNano()).build();
    }

    private final class Service extends MetricServiceGrpc.MetricServiceImplBase {

        @Override
        public void listTimeSeries(ListTimeSeriesRequest request, StreamObserver<ListTimeSeriesResponse> response) {
            listings.add(request);
            List<TimeSeries> all;
            try {
                all = matching(request);
            } catch (RuntimeException e) {
                response.onError(e);
                return;
            }
            // A series per page; the page token is the index of the page's series.
            int index = request.getPageToken().isEmpty() ? 0 : Integer.parseInt(request.getPageToken());
            ListTimeSeriesResponse.Builder page = ListTimeSeriesResponse.newBuilder();
            if (index < all.size()) {
                page.addTimeSeries(all.get(index));
            }
            if (index + 1 < all.size()) {
                page.setNextPageToken(Integer.toString(index + 1));
            }
            response.onNext(page.build());
            response.onCompleted();
        }
    }

    @Override
    public void close() {
        server.shutdownNow();
    }
}
