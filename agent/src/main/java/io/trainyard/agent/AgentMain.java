package io.trainyard.agent;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ch.qos.logback.classic.Level;
import io.trainyard.agent.connection.HttpServerConnection;
import io.trainyard.agent.sandbox.TrainerAccount;
import io.trainyard.agent.sandbox.TrainerIsolation;
import io.trainyard.protocol.Gpu;
import io.trainyard.protocol.Registration;
import org.slf4j.LoggerFactory;

/**
 * Starts an agent on this host: {@code java -jar trainyard-agent.jar --server=http://trainyard:8080} (or
 * {@code scripts/agent.sh}). Every
 * setting is a {@code --name=value} argument (see {@link #USAGE}); the token may come from the environment
 * variable {@code TRAINYARD_AGENT_TOKEN} instead, so it stays out of the process list. SIGTERM stops the
 * agent and leaves its trainers running: started again, it re-attaches to them.
 */
public final class AgentMain {

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    static final String USAGE = """
            usage: agent.sh --server=URL [--token=T] [options]
              --server=URL[,URL...]     the Trainyard server, or several replicas of it, tried in turn when one
                                        fails (default http://127.0.0.1:8080)
              --token=T                 this agent's token, made for its agent id by a global admin
                                        (POST /agent-tokens; default: $TRAINYARD_AGENT_TOKEN)
              --agent-id=NAME           this agent's name in the pool (default: the host name)
              --data-dir=DIR            where job folders live (default .trainyard-agent)
              --cpu-slots=N             trainer processes at once on a host without GPUs (default: CPU count)
              --nvidia-smi=PATH         how GPUs are found and their usage sampled (default nvidia-smi; none
                                        found: CPU slots)
              --system-metrics-interval=D  how often each job's GPU, CPU, memory and I/O use is sampled (default 5s)
              --simulated-gpus=N        offer N simulated GPUs instead (tests, benchmarks)
              --python=PATH             the Python that runs the supervisor (default python3)
              --cancel-grace-period=D   SIGTERM to SIGKILL on cancel or timeout (default 10s)
              --master-addr=HOST        torch.distributed rendezvous address (default 127.0.0.1)
              --max-log-backlog=BYTES   per output file, unread output kept for shipping (default 268435456)
              --trainer-path=DIRS       folders (':'-separated) put first on the trainers' PATH, e.g. the
                                        runtime's virtualenv bin folder, so `python -m trainyard_runtime.train`
                                        finds it (default: $TRAINYARD_TRAINER_PATH, else the agent's PATH)
              --trainer-isolation=MODE  sandbox (default): each trainer in a bubblewrap sandbox, as an unprivileged
                                        account when the agent is root; none: with the agent's own rights
              --trainer-uid=UID[:GID]   the account a root agent runs sandboxed trainers as (default 64999)
              --hide=FILES              more secret files (':'-separated) no trainer may read
            """;

    private AgentMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).setLevel(Level.INFO);
        if (List.of(args).contains("--help")) {
            System.out.print(USAGE);
            return;
        }
        Setup setup;
        try {
            setup = setup(arguments(args), System.getenv("TRAINYARD_AGENT_TOKEN"), System.getenv("TRAINYARD_TRAINER_PATH"));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
            return;
        }
        HostAgent agent;
        try {
            agent = new HostAgent(setup.settings(),
                    new HttpServerConnection(setup.servers(), setup.settings().agentId(), setup.token()));
        } catch (IllegalStateException e) {
            System.err.println(e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                agent.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            stopped.countDown();
        }));
        agent.start();
        stopped.await();
    }

    static Map<String, String> arguments(String[] args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String arg : args) {
            int equals = arg.indexOf('=');
            if (!arg.startsWith("--") || equals < 0) {
                throw new IllegalArgumentException("not a --name=value argument: " + arg);
            }
            values.put(arg.substring(2, equals), arg.substring(equals + 1));
        }
        return values;
    }

    /**
     * What the arguments say.
     *
     * @param servers the server's replicas (one or more), tried in turn when one fails
     * @param token this agent's token
     */
    record Setup(AgentSettings settings, List<URI> servers, String token) {
    }

    static Setup setup(Map<String, String> values, String tokenFromEnvironment, String trainerPathFromEnvironment) {
        Map<String, String> remaining = new LinkedHashMap<>(values);
        String token = remaining.containsKey("token") ? remaining.remove("token") : tokenFromEnvironment;
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("the agent needs its agent token (POST /agent-tokens on the server, by a global admin): "
                    + "--token or TRAINYARD_AGENT_TOKEN");
        }
        List<URI> servers = Arrays.stream(remaining.getOrDefault("server", "http://127.0.0.1:8080").split(","))
                .map(String::strip).filter(url -> !url.isEmpty()).map(URI::create).toList();
        String agentId = remaining.getOrDefault("agent-id", Registration.localHostName());
        Path dataDir = Path.of(remaining.getOrDefault("data-dir", ".trainyard-agent")).toAbsolutePath().normalize();
        int cpuSlots = Integer.parseInt(remaining.getOrDefault("cpu-slots", Integer.toString(Runtime.getRuntime().availableProcessors())));
        boolean simulated = remaining.containsKey("simulated-gpus");
        String nvidiaSmi = remaining.getOrDefault("nvidia-smi", "nvidia-smi");
        List<Gpu> gpus = simulated ? simulatedGpus(Integer.parseInt(remaining.get("simulated-gpus"))) : GpuDiscovery.discover(nvidiaSmi);
        AgentSettings settings = new AgentSettings(agentId, Registration.localHostName(), dataDir, gpus, cpuSlots,
                remaining.getOrDefault("python", "python3"),
                duration("cancel-grace-period", remaining.getOrDefault("cancel-grace-period", "10s")),
                remaining.getOrDefault("master-addr", "127.0.0.1"),
                Long.parseLong(remaining.getOrDefault("max-log-backlog", Long.toString(256L << 20))),
                paths(remaining.getOrDefault("trainer-path", trainerPathFromEnvironment)),
                TrainerIsolation.parse(remaining.getOrDefault("trainer-isolation", "sandbox")),
                TrainerAccount.parse(remaining.getOrDefault("trainer-uid", Integer.toString(TrainerAccount.DEFAULT_ID))),
                paths(remaining.get("hide")), simulated ? null : nvidiaSmi,
                duration("system-metrics-interval", remaining.getOrDefault("system-metrics-interval", "5s")));
        for (String known : List.of("server", "agent-id", "data-dir", "cpu-slots", "simulated-gpus", "nvidia-smi", "python",
                "cancel-grace-period", "master-addr", "max-log-backlog", "trainer-path", "trainer-isolation",
                "trainer-uid", "hide", "system-metrics-interval")) {
            remaining.remove(known);
        }
        if (!remaining.isEmpty()) {
            throw new IllegalArgumentException("unknown argument(s): " + remaining.keySet());
        }
        return new Setup(settings, servers, token);
    }

    /** Paths separated by ':' (as in PATH), each made absolute: trainers run in their job's work folder. */
    static List<Path> paths(String folders) {
        if (folders == null || folders.isBlank()) {
            return List.of();
        }
        return Arrays.stream(folders.split(File.pathSeparator)).filter(folder -> !folder.isBlank())
                .map(folder -> Path.of(folder).toAbsolutePath().normalize()).toList();
    }

    /** A duration as {@code 10s}, {@code 500ms}, {@code 2m} or {@code 1h}. */
    static Duration duration(String name, String text) {
        Matcher matcher = DURATION.matcher(text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("--" + name + " must be a duration such as 10s, 500ms or 2m, got '" + text + "'");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofSeconds(amount);
        };
    }

    /** GPUs that exist only for placement: the trainers run on the CPU. */
    static List<Gpu> simulatedGpus(int count) {
        List<Gpu> gpus = new ArrayList<>(count);
        for (int index = 0; index < count; index++) {
            gpus.add(new Gpu(index, "Simulated GPU", 81_559));
        }
        return gpus;
    }
}
