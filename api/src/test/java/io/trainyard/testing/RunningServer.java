package io.trainyard.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import io.trainyard.TrainyardServer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

/** A real Trainyard server on a random loopback port, started the way {@code java -jar} starts it. */
public final class RunningServer implements AutoCloseable {

    private final ConfigurableApplicationContext context;
    private final TrainyardClient api;

    private RunningServer(ConfigurableApplicationContext context, Path dataDir) {
        this.context = context;
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        String address = context.getEnvironment().getProperty("server.address", "127.0.0.1");
        this.api = ServerProcess.client("http://" + address + ":" + port, dataDir);
    }

    /**
     * @param databaseUrl null to let the server start its embedded PostgreSQL
     * @param extraArguments more {@code --key=value} settings
     */
    public static RunningServer start(String databaseUrl, Path dataDir, String nodeId, String... extraArguments) {
        return start(context -> { }, databaseUrl, dataDir, nodeId, extraArguments);
    }

    /**
     * A server on its embedded PostgreSQL whose own agent sees three H100 GPUs: a stand-in {@code nvidia-smi}
     * (written into the data folder) prints what the real one would on such a host.
     *
     * @param extraArguments more {@code --key=value} settings
     */
    public static RunningServer startWithThreeGpus(Path dataDir, String nodeId, String... extraArguments) throws IOException {
        return startWithThreeGpus(TestDatabase.newDatabaseUrl(), dataDir, nodeId, extraArguments);
    }

    /**
     * A server whose host has three H100s, as a stand-in {@code nvidia-smi} reports them: their inventory, and
     * each sampled at 37 % busy, 11,468 MiB in use, 34 °C, and 71.52 W (GPU 1's board does not report power).
     */
    public static RunningServer startWithThreeGpus(String databaseUrl, Path dataDir, String nodeId, String... extraArguments)
            throws IOException {
        Path nvidiaSmi = dataDir.resolve("nvidia-smi");
        Files.writeString(nvidiaSmi, """
                #!/bin/sh
                case "$*" in
                  *utilization.gpu*)
                    echo "0, 37, 11468, 71.52, 34"
                    echo "1, 37, 11468, [N/A], 34"
                    echo "2, 37, 11468, 71.52, 34" ;;
                  *)
                    echo "0, NVIDIA H100 80GB HBM3, 81559"
                    echo "1, NVIDIA H100 80GB HBM3, 81559"
                    echo "2, NVIDIA H100 80GB HBM3, 81559" ;;
                esac
                """);
        Files.setPosixFilePermissions(nvidiaSmi, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> arguments = new ArrayList<>(List.of("--trainyard.local.nvidia-smi=" + nvidiaSmi));
        arguments.addAll(List.of(extraArguments));
        return start(databaseUrl, dataDir, nodeId, arguments.toArray(String[]::new));
    }

    /**
     * @param beans registers beans before the server's own configuration is read, for what no property can
     *     point elsewhere (an in-memory Cloud Storage)
     */
    public static RunningServer start(ApplicationContextInitializer<GenericApplicationContext> beans, String databaseUrl,
            Path dataDir, String nodeId, String... extraArguments) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--trainyard.data-dir=" + dataDir,
                "--trainyard.node-id=" + nodeId, "--trainyard.local.cancel-grace-period=2s",
                "--spring.main.banner-mode=off"));
        if (databaseUrl != null) {
            arguments.add("--spring.datasource.url=" + databaseUrl);
        }
        arguments.addAll(List.of(extraArguments));
        return new RunningServer(new SpringApplicationBuilder(TrainyardServer.class).initializers(beans)
                .run(arguments.toArray(String[]::new)), dataDir);
    }

    /** The server as its first global admin (when it made one here; else without a token). */
    public TrainyardClient api() {
        return api;
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    @Override
    public void close() {
        context.close();
    }
}
