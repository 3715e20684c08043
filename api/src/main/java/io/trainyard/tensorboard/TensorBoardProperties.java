package io.trainyard.tensorboard;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The TensorBoards the server runs for jobs ({@code trainyard.tensorboard.*}).
 *
 * @param executable the {@code tensorboard} program: a path, or a name looked up on the PATH; by default the
 *     runtime's ({@code runtime/.venv/bin/tensorboard}, pinned with the runtime) if it exists under the working
 *     folder, else {@code tensorboard}
 * @param idleTimeout a TensorBoard that served no request for this long is stopped
 * @param maxRunning at most this many run at once; opening one more stops the least recently used
 * @param startupTimeout how long a starting TensorBoard may take to answer
 */
@ConfigurationProperties("trainyard.tensorboard")
public record TensorBoardProperties(
        String executable,
        @DefaultValue("5m") Duration idleTimeout,
        @DefaultValue("4") int maxRunning,
        @DefaultValue("120s") Duration startupTimeout) {

    private static final Path RUNTIME_TENSORBOARD = Path.of("runtime", ".venv", "bin", "tensorboard");

    public TensorBoardProperties {
        if (executable == null || executable.isBlank()) {
            executable = Files.isExecutable(RUNTIME_TENSORBOARD) ? RUNTIME_TENSORBOARD.toAbsolutePath().toString() : "tensorboard";
        }
        if (maxRunning < 1) {
            throw new IllegalArgumentException("trainyard.tensorboard.max-running must be at least 1, got " + maxRunning);
        }
    }
}
