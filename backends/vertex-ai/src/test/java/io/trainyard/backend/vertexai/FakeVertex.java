package io.trainyard.backend.vertexai;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
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
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;

/**
 * An in-process gRPC fake of Vertex AI's JobService, driven by the real {@link JobServiceClient}: it keeps
 * the CustomJobs created, answers label filters as Vertex does for {@code labels.k="v" AND …}, and lets a
 * test move a job through its states. It records every request with the time it arrived.
 */
final class FakeVertex implements AutoCloseable {

    private static final Pattern LABEL_TERM = Pattern.compile("labels\\.([a-z_]+)=\"([^\"]*)\"");

    final List<CreateCustomJobRequest> creations = Collections.synchronizedList(new ArrayList<>());
    final List<Long> requestNanos = Collections.synchronizedList(new ArrayList<>());
    final List<Long> creationNanos = Collections.synchronizedList(new ArrayList<>());
    final List<String> cancels = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, CustomJob> jobs = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger(1000);
    private final Server server;
    private final ManagedChannel channel;
    final JobServiceClient client;

    FakeVertex() throws IOException {
        String name = "fake-vertex-" + UUID.randomUUID();
        server = InProcessServerBuilder.forName(name).directExecutor().addService(new Service()).build().start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        client = JobServiceClient.create(JobServiceSettings.newBuilder()
                .setCredentialsProvider(NoCredentialsProvider.create())
                .setTransportChannelProvider(FixedTransportChannelProvider.create(GrpcTransportChannel.create(channel)))
                .build());
    }

    CustomJob job(String name) {
        return jobs.get(name);
    }

    /** Moves a CustomJob to a state, with an error status when given. */
    void setState(String name, JobState state, com.google.rpc.Status error) {
        jobs.computeIfPresent(name, (key, job) -> {
            CustomJob.Builder next = job.toBuilder().setState(state);
            if (error != null) {
                next.setError(error);
            }
            return next.build();
        });
    }

    private final class Service extends JobServiceGrpc.JobServiceImplBase {

        @Override
        public void createCustomJob(CreateCustomJobRequest request, StreamObserver<CustomJob> response) {
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
            requestNanos.add(System.nanoTime());
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
        client.close();
        channel.shutdownNow();
        server.shutdownNow();
    }
}
