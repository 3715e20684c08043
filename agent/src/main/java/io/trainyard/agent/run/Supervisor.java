package io.trainyard.agent.run;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-process supervisor ({@code supervise.py}, stdlib Python, shipped in this jar) as installed in the
 * data directory, the interpreter that runs it, and the agent's fence deadline it obeys.
 */
public record Supervisor(Path script, String python, FenceDeadline fence) {

    private static final Logger log = LoggerFactory.getLogger(Supervisor.class);

    /** Writes the script under {@code dataDir} and finds the real interpreter behind {@code python}. */
    public static Supervisor install(Path dataDir, String python) throws IOException {
        Files.createDirectories(dataDir);
        Path target = dataDir.resolve("supervise.py");
        try (InputStream script = Supervisor.class.getResourceAsStream("supervise.py")) {
            if (script == null) {
                throw new IOException("supervise.py is missing from the agent's jar");
            }
            Files.copy(script, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return new Supervisor(target, resolve(python), FenceDeadline.in(dataDir));
    }

    /**
     * The real interpreter behind {@code python} (pyenv and similar put a slow shell shim first on PATH):
     * starting the supervisor directly keeps dispatch latency low.
     */
    private static String resolve(String python) {
        try {
            Process process = new ProcessBuilder(python, "-c", "import sys; print(sys.executable)")
                    .redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (process.waitFor(20, TimeUnit.SECONDS) && process.exitValue() == 0 && !output.isEmpty()) {
                return output;
            }
            log.warn("{} did not say where it lives ({}); using it as given", python, output);
        } catch (IOException e) {
            log.error("The local backend needs {} to supervise trainer processes: {}", python, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return python;
    }
}
