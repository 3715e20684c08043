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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.api.MonitoredResource;
import com.google.logging.type.LogSeverity;
import com.google.logging.v2.ListLogEntriesRequest;
import com.google.logging.v2.ListLogEntriesResponse;
import com.google.logging.v2.LogEntry;
import com.google.logging.v2.LoggingServiceV2Grpc;
import com.google.protobuf.Timestamp;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;

/**
 * A gRPC fake of Cloud Logging's {@code LoggingServiceV2.ListLogEntries} on a loopback port, for the real
 * {@code LoggingClient}. It answers the filters a CustomJob's logs are read with ({@code resource.labels.job_id},
 * {@code timestamp>=}, {@code timestamp<}) in (timestamp, insertId) order, a page of at most the requested
 * size at a time, as Cloud Logging does. Every listing request is recorded.
 */
public final class FakeCloudLogging implements AutoCloseable {

    private static final Pattern JOB_ID = Pattern.compile("resource\\.labels\\.job_id=\"([^\"]*)\"");
    private static final Pattern NOT_BEFORE = Pattern.compile("timestamp>=\"([^\"]*)\"");
    private static final Pattern BEFORE = Pattern.compile("timestamp<\"([^\"]*)\"");
    private static final Comparator<LogEntry> ORDER = Comparator
            .comparing((LogEntry entry) -> entry.getTimestamp().getSeconds())
            .thenComparing(entry -> entry.getTimestamp().getNanos())
            .thenComparing(LogEntry::getInsertId);

    public final List<ListLogEntriesRequest> listings = Collections.synchronizedList(new ArrayList<>());
    private final List<LogEntry> entries = new ArrayList<>();
    private final Server server;
    private int insertIds;

    public FakeCloudLogging() throws IOException {
        server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .addService(new Service()).build().start();
    }

    /** {@code host:port} of the fake, for {@code trainyard.vertex-ai.logging-endpoint}. */
    public String endpoint() {
        return "127.0.0.1:" + server.getPort();
    }

    /** Writes a text entry of a CustomJob's replica ({@code workerpool0-0} is the leader) at a time. */
    public synchronized void write(String customJobId, String taskName, Instant time, LogSeverity severity, String text) {
        entries.add(LogEntry.newBuilder()
                .setInsertId(String.format("%012d", ++insertIds))
                .setLogName("projects/p/logs/workerpool")
                .setResource(MonitoredResource.newBuilder().setType("ml_job")
                        .putAllLabels(Map.of("job_id", customJobId, "task_name", taskName)))
                .setTimestamp(Timestamp.newBuilder().setSeconds(time.getEpochSecond()).setNanos(time.getNano()))
                .setSeverity(severity)
                .setTextPayload(text + "\n")
                .build());
    }

    private synchronized List<LogEntry> matching(String filter) {
        Matcher jobId = JOB_ID.matcher(filter);
        Matcher notBefore = NOT_BEFORE.matcher(filter);
        Matcher before = BEFORE.matcher(filter);
        if (!jobId.find()) {
            throw Status.INVALID_ARGUMENT.withDescription("no resource.labels.job_id in " + filter).asRuntimeException();
        }
        Instant from = notBefore.find() ? Instant.parse(notBefore.group(1)) : Instant.MIN;
        Instant until = before.find() ? Instant.parse(before.group(1)) : Instant.MAX;
        return entries.stream()
                .filter(entry -> entry.getResource().getLabelsOrThrow("job_id").equals(jobId.group(1)))
                .filter(entry -> {
                    Instant time = Instant.ofEpochSecond(entry.getTimestamp().getSeconds(), entry.getTimestamp().getNanos());
                    return !time.isBefore(from) && time.isBefore(until);
                })
                .sorted(ORDER)
                .toList();
    }

    private final class Service extends LoggingServiceV2Grpc.LoggingServiceV2ImplBase {

        @Override
        public void listLogEntries(ListLogEntriesRequest request, StreamObserver<ListLogEntriesResponse> response) {
            listings.add(request);
            List<LogEntry> all;
            try {
                all = matching(request.getFilter());
            } catch (RuntimeException e) {
                response.onError(e);
                return;
            }
            // The page token is the index of the page's first entry.
            int from = request.getPageToken().isEmpty() ? 0 : Integer.parseInt(request.getPageToken());
            int to = Math.min(all.size(), from + (request.getPageSize() > 0 ? request.getPageSize() : 50));
            ListLogEntriesResponse.Builder page = ListLogEntriesResponse.newBuilder().addAllEntries(all.subList(from, to));
            if (to < all.size()) {
                page.setNextPageToken(Integer.toString(to));
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
