package io.trainyard.tensorboard;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The TensorBoard processes this server runs, one per job (or per set of jobs compared), each on a loopback port
 * and under the URL path prefix the server proxies it at, behind a secret of its own: TensorBoard has no
 * authentication, and any process of the host (a trainer of another project among them) can reach a loopback port,
 * so each serves only under {@code /<secret><prefix>} (anything else is a 404), and only the server's proxy knows
 * the secret. Opening one that runs reuses it; one that served no
 * request for {@code trainyard.tensorboard.idle-timeout} is stopped; at most {@code max-running} run at once, and
 * opening one more stops the least recently used.
 */
@Component
public class TensorBoards {

    private static final Logger log = LoggerFactory.getLogger(TensorBoards.class);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A running TensorBoard; {@code lastUsed} is renewed by each proxied request. */
    public static final class Running {

        private final Process process;
        private final int port;
        /** The first segment of every path it answers, unknown outside this server. */
        private final String secret;
        private final List<String> runNames;
        /** TensorBoard's own output, kept while it runs to explain a failed start. */
        private final Path logFile;
        private volatile long lastUsedNanos = System.nanoTime();

        Running(Process process, int port, String secret, List<String> runNames, Path logFile) {
            this.process = process;
            this.port = port;
            this.secret = secret;
            this.runNames = List.copyOf(runNames);
            this.logFile = logFile;
        }

        /** Where the TensorBoard answers a path the server serves it under (with its query, if any). */
        public URI target(String path, String query) {
            return URI.create(origin() + "/" + secret + path + (query == null ? "" : "?" + query));
        }

        /** A {@code Location} TensorBoard answered, as the browser must see it: without the secret. */
        public String publicLocation(String location) {
            String local = location.startsWith(origin()) ? location.substring(origin().length()) : location;
            return local.startsWith("/" + secret + "/") ? local.substring(secret.length() + 1) : local;
        }

        /** The names of the runs it shows, in place of the folders they are read from. */
        public List<String> runNames() {
            return runNames;
        }

        private String origin() {
            return "http://127.0.0.1:" + port;
        }

        public void touch() {
            lastUsedNanos = System.nanoTime();
        }
    }

    private final TensorBoardProperties properties;
    private final Map<String, Running> running = new LinkedHashMap<>();
    private final ScheduledExecutorService reaper = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("tensorboard-reaper").factory());

    public TensorBoards(TensorBoardProperties properties) {
        this.properties = properties;
        long checkMillis = Math.max(Math.min(properties.idleTimeout().toMillis() / 4, 10_000), 100);
        reaper.scheduleWithFixedDelay(this::stopIdle, checkMillis, checkMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * The TensorBoard under {@code pathPrefix}, started if none runs, reading each run folder under its name.
     *
     * @param runs TensorBoard's {@code --logdir_spec}: a name for each folder
     */
    public synchronized Running open(String pathPrefix, Map<String, Path> runs) throws IOException, InterruptedException {
        Running existing = running.get(pathPrefix);
        if (existing != null && existing.process.isAlive()) {
            existing.touch();
            return existing;
        }
        running.remove(pathPrefix);
        while (running.size() >= properties.maxRunning()) {
            String leastRecent = running.entrySet().stream()
                    .min(Comparator.comparingLong(entry -> entry.getValue().lastUsedNanos)).orElseThrow().getKey();
            log.info("Stopping the TensorBoard of {} to make room (trainyard.tensorboard.max-running={})", leastRecent,
                    properties.maxRunning());
            stop(running.remove(leastRecent));
        }
        Running started = start(pathPrefix, runs);
        running.put(pathPrefix, started);
        return started;
    }

    /** The path prefixes of the TensorBoards running now. */
    public synchronized List<String> runningPrefixes() {
        return new ArrayList<>(running.keySet());
    }

    private Running start(String pathPrefix, Map<String, Path> runs) throws IOException, InterruptedException {
        int port = freePort();
        String logdirSpec = runs.entrySet().stream().map(run -> run.getKey() + ":" + run.getValue())
                .collect(Collectors.joining(","));
        Path logFile = Files.createTempFile("trainyard-tensorboard", ".log");
        String secret = newSecret();
        Process process = new ProcessBuilder(properties.executable(), "--logdir_spec", logdirSpec,
                "--host", "127.0.0.1", "--port", Integer.toString(port), "--path_prefix", "/" + secret + pathPrefix,
                "--reload_interval", "2")
                .redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
        Running started = new Running(process, port, secret, List.copyOf(runs.keySet()), logFile);
        long deadline = System.nanoTime() + properties.startupTimeout().toNanos();
        URI ready = started.target(pathPrefix + "/data/environment", null);
        while (!answers(ready)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                String output = tail(logFile);
                stop(started);
                throw new IOException("TensorBoard (" + properties.executable() + ") did not start: " + output);
            }
            Thread.sleep(200);
        }
        log.info("Started TensorBoard for {} on port {} (pid {})", pathPrefix, port, process.pid());
        return started;
    }

    private static boolean answers(URI uri) throws InterruptedException {
        try {
            return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private static String tail(Path logFile) {
        try {
            String text = Files.readString(logFile);
            return text.length() > 2000 ? text.substring(text.length() - 2000) : text;
        } catch (IOException e) {
            return "(no output)";
        }
    }

    private synchronized void stopIdle() {
        long idleNanos = properties.idleTimeout().toNanos();
        running.entrySet().removeIf(entry -> {
            if (!entry.getValue().process.isAlive()) {
                log.warn("The TensorBoard of {} exited: {}", entry.getKey(), tail(entry.getValue().logFile));
            } else if (System.nanoTime() - entry.getValue().lastUsedNanos > idleNanos) {
                log.info("Stopping the TensorBoard of {} (idle for {})", entry.getKey(), properties.idleTimeout());
            } else {
                return false;
            }
            stop(entry.getValue());
            return true;
        });
    }

    private static void stop(Running tensorBoard) {
        tensorBoard.process.destroy();
        try {
            if (!tensorBoard.process.waitFor(5, TimeUnit.SECONDS)) {
                tensorBoard.process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            tensorBoard.process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Files.deleteIfExists(tensorBoard.logFile);
        } catch (IOException e) {
            log.debug("Could not delete {}", tensorBoard.logFile, e);
        }
    }

    @PreDestroy
    synchronized void stopAll() {
        reaper.shutdownNow();
        running.values().forEach(TensorBoards::stop);
        running.clear();
    }

    /** 256 random bits, fit for a URL path segment. */
    private static String newSecret() {
        byte[] random = new byte[32];
        RANDOM.nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
