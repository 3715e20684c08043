package io.trainyard.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real server for all tests of a class, on a fresh database and data folder:
 * {@code @RegisterExtension static ServerExtension server = new ServerExtension("node-id");}.
 */
public final class ServerExtension implements BeforeAllCallback, AfterAllCallback {

    private final String nodeId;
    private final String[] arguments;
    private Path dataDir;
    private RunningServer server;

    public ServerExtension(String nodeId, String... arguments) {
        this.nodeId = nodeId;
        this.arguments = arguments;
    }

    public TrainyardClient api() {
        return server.api();
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The server's config root: config files the tests submit by URI go here. */
    public Path configRoot() {
        return dataDir.resolve("configs");
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dataDir = Files.createTempDirectory("trainyard-" + nodeId);
        Files.createDirectories(configRoot());
        List<String> all = new ArrayList<>(List.of("--trainyard.config-roots=" + configRoot()));
        all.addAll(List.of(arguments));
        server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir, nodeId, all.toArray(String[]::new));
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        server.close();
        try (Stream<Path> paths = Files.walk(dataDir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
