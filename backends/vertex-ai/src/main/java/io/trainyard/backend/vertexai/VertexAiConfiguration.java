package io.trainyard.backend.vertexai;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.InstantiatingGrpcChannelProvider;
import com.google.cloud.aiplatform.v1.JobServiceClient;
import com.google.cloud.aiplatform.v1.JobServiceSettings;
import com.google.cloud.logging.v2.LoggingClient;
import com.google.cloud.logging.v2.LoggingSettings;
import com.google.cloud.monitoring.v3.MetricServiceClient;
import com.google.cloud.monitoring.v3.MetricServiceSettings;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.grpc.ManagedChannelBuilder;
import io.trainyard.core.TrainyardProperties;
import io.trainyard.job.JobTransitions;
import io.trainyard.logs.LogStore;
import io.trainyard.logs.LogWriter;
import io.trainyard.scalars.ScalarIngest;
import io.trainyard.scalars.ScalarStore;
import io.trainyard.scalars.SystemMetricStore;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Vertex AI backend, present only when {@code trainyard.vertex-ai.project} is set. Clients authenticate
 * with Application Default Credentials ({@code GOOGLE_APPLICATION_CREDENTIALS}, gcloud's login, or the
 * metadata server); one JobService client per region, since its endpoint is regional.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "trainyard.vertex-ai.project")
@EnableConfigurationProperties(VertexAiProperties.class)
public class VertexAiConfiguration {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Bean(destroyMethod = "close")
    LoggingClient vertexLoggingClient(VertexAiProperties properties) throws IOException {
        LoggingSettings.Builder settings = LoggingSettings.newBuilder();
        if (properties.loggingEndpoint() != null) {
            settings.setEndpoint(properties.loggingEndpoint());
        }
        if (properties.emulator()) {
            settings.setCredentialsProvider(NoCredentialsProvider.create())
                    .setTransportChannelProvider(plaintext(LoggingSettings.defaultGrpcTransportProviderBuilder()));
        }
        return LoggingClient.create(settings.build());
    }

    @Bean(destroyMethod = "close")
    MetricServiceClient vertexMonitoringClient(VertexAiProperties properties) throws IOException {
        MetricServiceSettings.Builder settings = MetricServiceSettings.newBuilder();
        if (properties.monitoringEndpoint() != null) {
            settings.setEndpoint(properties.monitoringEndpoint());
        }
        if (properties.emulator()) {
            settings.setCredentialsProvider(NoCredentialsProvider.create())
                    .setTransportChannelProvider(plaintext(MetricServiceSettings.defaultGrpcTransportProviderBuilder()));
        }
        return MetricServiceClient.create(settings.build());
    }

    /** Tests put an in-memory Storage in its place (there is no Cloud Storage emulator speaking gRPC here). */
    @Bean
    @ConditionalOnMissingBean(Storage.class)
    Storage vertexStorage(VertexAiProperties properties) {
        return StorageOptions.newBuilder().setProjectId(properties.project()).build().getService();
    }

    @Bean
    GcsFiles vertexGcsFiles(Storage vertexStorage) {
        return new GcsFiles(vertexStorage);
    }

    @Bean
    VertexAiBackend vertexAiBackend(VertexAiProperties properties, GcsFiles vertexGcsFiles, LoggingClient vertexLoggingClient,
            MetricServiceClient vertexMonitoringClient, JobTransitions transitions, LogWriter logWriter, LogStore logStore,
            ScalarStore scalarStore, ScalarIngest scalarIngest, SystemMetricStore systemMetricStore, Storage vertexStorage,
            TrainyardProperties trainyard) {
        Map<String, JobServiceClient> clients = new ConcurrentHashMap<>();
        VertexJobs vertex = new VertexJobs(region -> clients.computeIfAbsent(region, key -> jobServiceClient(properties, key)),
                new QuotaLimiter(properties.creationsPerMinute(), MINUTE), new QuotaLimiter(properties.requestsPerMinute(), MINUTE));
        return new VertexAiBackend(properties, trainyard.nodeId(), vertexGcsFiles, new VertexRun.Services(vertex,
                logIngesters(vertexLoggingClient, new QuotaLimiter(properties.logReadsPerMinute(), MINUTE), logStore),
                scalarReaders(vertexStorage, new QuotaLimiter(properties.storageReadsPerMinute(), MINUTE), scalarStore,
                        scalarIngest),
                usageReaders(vertexMonitoringClient, new QuotaLimiter(properties.monitoringReadsPerMinute(), MINUTE), systemMetricStore),
                transitions, logWriter, properties));
    }

    /** Each attempt's event file reader resumes after the records whose points are stored. */
    static VertexRun.ScalarReaders scalarReaders(Storage storage, QuotaLimiter reads, ScalarStore scalarStore,
            ScalarIngest ingest) {
        return (project, tensorboardLogsUri, jobId, attempt) -> new CloudEventReader(storage, reads, project,
                tensorboardLogsUri, jobId, attempt, ingest, scalarStore.readPositions(jobId, attempt));
    }

    /** Each attempt's reader resumes after its last stored sample. */
    static VertexRun.UsageReaders usageReaders(MetricServiceClient monitoring, QuotaLimiter reads, SystemMetricStore store) {
        return (project, customJobId, jobId, attempt, startedAt) -> new CloudMonitoringReader(monitoring, reads, project, customJobId,
                jobId, attempt, startedAt, store);
    }

    /** Each attempt's ingester resumes after the entries stored with its last log chunk. */
    static VertexRun.LogIngesters logIngesters(LoggingClient logging, QuotaLimiter reads, LogStore logStore) {
        return (project, customJobId, jobId, attempt, sink) -> {
            Long stored = logStore.readPositions(jobId, attempt).get(CloudLogCursor.SOURCE);
            return new CloudLogIngester(logging, reads, project, customJobId, sink,
                    stored == null ? CloudLogCursor.START : CloudLogCursor.unpack(stored));
        };
    }

    private static InstantiatingGrpcChannelProvider plaintext(InstantiatingGrpcChannelProvider.Builder channels) {
        return channels.setChannelConfigurator(ManagedChannelBuilder::usePlaintext).build();
    }

    private static JobServiceClient jobServiceClient(VertexAiProperties properties, String region) {
        try {
            JobServiceSettings.Builder settings = JobServiceSettings.newBuilder()
                    .setEndpoint(properties.apiEndpoint() != null ? properties.apiEndpoint() : region + "-aiplatform.googleapis.com:443");
            if (properties.emulator()) {
                settings.setCredentialsProvider(NoCredentialsProvider.create())
                        .setTransportChannelProvider(plaintext(JobServiceSettings.defaultGrpcTransportProviderBuilder()));
            }
            return JobServiceClient.create(settings.build());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the Vertex AI client for " + region, e);
        }
    }
}
