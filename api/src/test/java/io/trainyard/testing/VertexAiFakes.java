package io.trainyard.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.google.cloud.storage.Storage;
import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import io.trainyard.backend.vertexai.FakeCloudLogging;
import io.trainyard.backend.vertexai.FakeCloudMonitoring;
import io.trainyard.backend.vertexai.FakeVertex;

/**
 * Vertex AI for a real server under test: gRPC fakes of its JobService, of Cloud Logging and of Cloud Monitoring, and an in-memory
 * Cloud Storage, with the server settings that point the Vertex AI backend at them.
 */
public final class VertexAiFakes implements AutoCloseable {

    public final FakeVertex vertex;
    public final FakeCloudLogging logging;
    public final FakeCloudMonitoring monitoring;
    public final Storage storage = LocalStorageHelper.getOptions().getService();

    public VertexAiFakes() throws Exception {
        vertex = new FakeVertex();
        logging = new FakeCloudLogging();
        monitoring = new FakeCloudMonitoring();
    }

    /** A server whose Vertex AI backend talks to these fakes; {@code extraArguments} add or override settings. */
    public RunningServer startServer(String databaseUrl, Path dataDir, String nodeId, String... extraArguments) {
        List<String> arguments = new ArrayList<>(List.of("--trainyard.vertex-ai.project=test-project",
                "--trainyard.vertex-ai.emulator=true",
                "--trainyard.vertex-ai.api-endpoint=" + vertex.endpoint(),
                "--trainyard.vertex-ai.logging-endpoint=" + logging.endpoint(),
                "--trainyard.vertex-ai.monitoring-endpoint=" + monitoring.endpoint()));
        arguments.addAll(List.of(extraArguments));
        return RunningServer.start(context -> context.registerBean("inMemoryStorage", Storage.class, () -> storage),
                databaseUrl, dataDir, nodeId, arguments.toArray(String[]::new));
    }

    @Override
    public void close() {
        vertex.close();
        logging.close();
        monitoring.close();
    }
}
