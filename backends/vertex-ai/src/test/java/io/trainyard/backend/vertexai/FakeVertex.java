package io.trainyard.backend.vertexai;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.GrpcTransportChannel;
import com.google.api.gax.rpc.FixedTransportChannelProvider;
import com.google.cloud.aiplatform.v1.CancelCustomJobRequest;
import com.google.cloud.aiplatform.v1.CreateCustomJobRequest;
import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.GetCustomJobRequest;
import com.google.cloud.aiplatform.v1.JobServiceClient;
import com.google.cloud.aiplatform.v1.JobServiceGrpc;
import com.google.cloud.aiplatform.v1.JobServiceSettings;
import com.google.cloud.aiplatform.v1.JobState;
import com.google.cloud.aiplatform.v1.ListCustomJobsRequest;
import com.google.cloud.aiplatform.v1.ListCustomJobsResponse;
import com.google.protobuf.Empty;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;

/**
 * A gRPC fake of Vertex AI's JobService on a loopback port, driven by the real {@link JobServiceClient}
 * (this one's {@link #client}, or a server pointed at {@link #endpoint()} with plaintext and no
 * credentials): it keeps the CustomJobs created, answers label filters as Vertex does for
 * {@code labels.k="v" AND …}, and lets a test move a job through its states or hold creations back. It
 * records every request with the time it arrived.
 */
public final class FakeVertex implements AutoCloseable {

    private static final Pattern LABEL_TERM = Pattern.compile("labels\\.([a-z_]+)=\"([^\"]*)\"");

    public final List<CreateCustomJobRequest> creations = Collections.synchronizedList(new ArrayList<>());
    public final List<Long> requestNanos = Collections.synchronizedList(new ArrayList<>());
    public final List<Long> creationNanos = Collections.synchronizedList(new ArrayList<>());
    /** When each GetCustomJob call arrived, by CustomJob name: how often a job is looked at. */
    public final Map<String, List<Long>> getNanos = new ConcurrentHashMap<>();
    public final List<String> cancels = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, CustomJob> jobs = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger(1000);
    private final Server server;
    private final ManagedChannel channel;
    private volatile CountDownLatch creationGate = new CountDownLatch(0);
    /** Every creation request as it arrives, before a held one is let through. */
    private final List<CreateCustomJobRequest> arrivals = Collections.synchronizedList(new ArrayList<>());
    public final JobServiceClient client;

    public FakeVertex() throws IOException {
        server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .addService(new Service()).build().start();
        channel = NettyChannelBuilder.forTarget(endpoint()).usePlaintext().build();
        client = JobServiceClient.create(JobServiceSettings.newBuilder()
                .setCredentialsProvider(NoCredentialsProvider.create())
                .setTransportChannelProvider(FixedTransportChannelProvider.create(GrpcTransportChannel.create(channel)))
                .build());
    }

    /** {@code host:port} of the fake, for {@code trainyard.vertex-ai.api-endpoint}. */
    public String endpoint() {
        return "127.0.0.1:" + server.getPort();
    }

    public CustomJob job(String name) {
        return jobs.get(name);
    }

    /** The CustomJobs created so far. */
    public List<CustomJob> jobs() {
        return List.copyOf(jobs.values());
    }

    /** Creations that arrive from now on wait until {@link #releaseCreations()}. */
    public void holdCreations() {
        creationGate = new CountDownLatch(1);
    }

    public void releaseCreations() {
        creationGate.countDown();
    }

    /** Waits until a request to create a CustomJob with this label has arrived, held or not. */
    public void awaitCreationRequest(String label, String value, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (arrivals.stream().noneMatch(request -> value.equals(request.getCustomJob().getLabelsMap().get(label)))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no CustomJob labelled " + label + "=" + value + " was requested in " + timeout);
            }
            Thread.sleep(10);
        }
    }

    /** Moves a CustomJob to a state, with an error status when given; its start time is set when it first runs. */
    public void setState(String name, JobState state, com.google.rpc.Status error) {
        jobs.computeIfPresent(name, (key, job) -> {
            CustomJob.Builder next = job.toBuilder().setState(state);
            if (state == JobState.JOB_STATE_RUNNING && !job.hasStartTime()) {
                Instant now = Instant.now();
                next.setStartTime(com.google.protobuf.Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()));
            }
            if (error != null) {
                next.setError(error);
            }
            return next.build();
        });
    }

    private final class Service extends JobServiceGrpc.JobServiceImplBase {

        @Override
        public void createCustomJob(CreateCustomJobRequest request, StreamObserver<CustomJob> response) {
            arrivals.add(request);
            try {
                creationGate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                response.onError(Status.CANCELLED.asRuntimeException());
                return;
            }
            long now = System.nanoTime();
            requestNanos.add(now);
            creationNanos.add(now);
            creations.add(request);
            String name = request.getParent() + "/customJobs/" + ids.incrementAndGet();
            CustomJob job = request.getCustomJob().toBuilder().setName(name).setState(JobState.JOB_STATE_PENDING).build();
            jobs.put(name, job);
            response.onNext(job);
            response.onCompleted();
        }

        @Override
        public void getCustomJob(GetCustomJobRequest request, StreamObserver<CustomJob> response) {
            long now = System.nanoTime();
            requestNanos.add(now);
            getNanos.computeIfAbsent(request.getName(), key -> Collections.synchronizedList(new ArrayList<>())).add(now);
            CustomJob job = jobs.get(request.getName());
            if (job == null) {
                response.onError(Status.NOT_FOUND.withDescription(request.getName()).asRuntimeException());
                return;
            }
            response.onNext(job);
            response.onCompleted();
        }

        @Override
        public void listCustomJobs(ListCustomJobsRequest request, StreamObserver<ListCustomJobsResponse> response) {
            requestNanos.add(System.nanoTime());
            Matcher terms = LABEL_TERM.matcher(request.getFilter());
            Map<String, String> wanted = new java.util.HashMap<>();
            while (terms.find()) {
                wanted.put(terms.group(1), terms.group(2));
            }
            ListCustomJobsResponse.Builder page = ListCustomJobsResponse.newBuilder();
            jobs.values().stream()
                    .filter(job -> job.getName().startsWith(request.getParent() + "/"))
                    .filter(job -> wanted.entrySet().stream().allMatch(term -> term.getValue().equals(job.getLabelsMap().get(term.getKey()))))
                    .forEach(page::addCustomJobs);
            response.onNext(page.build());
            response.onCompleted();
        }

        @Override
        public void cancelCustomJob(CancelCustomJobRequest request, StreamObserver<Empty> response) {
            requestNanos.add(System.nanoTime());
            cancels.add(request.getName());
            jobs.computeIfPresent(request.getName(), (key, job) -> job.getState() == JobState.JOB_STATE_RUNNING
                    || job.getState() == JobState.JOB_STATE_PENDING ? job.toBuilder().setState(JobState.JOB_STATE_CANCELLING).build() : job);
            response.onNext(Empty.getDefaultInstance());
            response.onCompleted();
        }
    }

    @Override
    public void close() {
        releaseCreations();
        client.close();
        channel.shutdownNow();
        server.shutdownNow();
    }
}
