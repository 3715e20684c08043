package io.trainyard.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * OpenSSH's {@code sshd} (Debian's {@code openssh-server}) on 127.0.0.1 at a free port, in a folder of its own: a
 * login node for tests of what runs commands over SSH. Only a key made for it logs in, as the test's own user, and
 * every command it is asked to run is first written to {@link #commandLog()}, so a test can see what came over SSH.
 */
public final class LoopbackSshd implements AutoCloseable {

    public static final Path SSHD = Path.of("/usr/sbin/sshd");

    private final Path folder;
    private final int port;
    private final Process process;

    private LoopbackSshd(Path folder, int port, Process process) {
        this.folder = folder;
        this.port = port;
        this.process = process;
    }

    /** Whether the server is installed ({@code apt-get install openssh-server}). */
    public static boolean available() {
        return Files.isExecutable(SSHD);
    }

    public static LoopbackSshd start() throws IOException, InterruptedException {
        Path folder = Files.createTempDirectory("trainyard-sshd");
        keygen(folder.resolve("host_key"));
        keygen(folder.resolve("client_key"));
        Path log = folder.resolve("commands.log");
        // The forced command logs the command the client asked for, then runs it as the user's shell would have.
        Files.writeString(folder.resolve("authorized_keys"), "command=\"echo \\\"$SSH_ORIGINAL_COMMAND\\\" >> " + log
                + "; exec /bin/sh -c \\\"$SSH_ORIGINAL_COMMAND\\\"\" " + Files.readString(folder.resolve("client_key.pub")));
        int port = TestJvm.freePort();
        Files.writeString(folder.resolve("known_hosts"), "[127.0.0.1]:" + port + " " + Files.readString(folder.resolve("host_key.pub")));
        Files.writeString(folder.resolve("sshd_config"), """
                Port %d
                ListenAddress 127.0.0.1
                HostKey %s
                PidFile %s
                AuthorizedKeysFile %s
                StrictModes no
                UsePAM no
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                PermitRootLogin prohibit-password
                """.formatted(port, folder.resolve("host_key"), folder.resolve("sshd.pid"), folder.resolve("authorized_keys")));
        // sshd checks that its privilege separation folder exists when it runs as root.
        if ("root".equals(System.getProperty("user.name"))) {
            Files.createDirectories(Path.of("/run/sshd"));
        }
        Process process = new ProcessBuilder(SSHD.toString(), "-D", "-e", "-f", folder.resolve("sshd_config").toString())
                .redirectErrorStream(true)
                .redirectOutput(folder.resolve("sshd.log").toFile())
                .start();
        LoopbackSshd sshd = new LoopbackSshd(folder, port, process);
        Eventually.await("sshd listens (" + folder.resolve("sshd.log") + ")", sshd::listens, Duration.ofSeconds(20));
        return sshd;
    }

    /** The server arguments that run Slurm's commands on this login node. */
    public List<String> slurmArguments() {
        return List.of("--trainyard.slurm.ssh.host=127.0.0.1", "--trainyard.slurm.ssh.port=" + port,
                "--trainyard.slurm.ssh.user=" + System.getProperty("user.name"),
                "--trainyard.slurm.ssh.identity-file=" + folder.resolve("client_key"),
                "--trainyard.slurm.ssh.known-hosts-file=" + folder.resolve("known_hosts"));
    }

    /** The commands run over SSH so far, one a line, as the client sent them. */
    public List<String> commandLog() throws IOException {
        Path log = folder.resolve("commands.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private boolean listens() {
        if (!process.isAlive()) {
            throw new IllegalStateException("sshd ended: see " + folder.resolve("sshd.log"));
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void keygen(Path key) throws IOException, InterruptedException {
        Process keygen = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "trainyard-test", "-f", key.toString())
                .redirectErrorStream(true).start();
        String out = new String(keygen.getInputStream().readAllBytes());
        if (keygen.waitFor() != 0) {
            throw new IOException("ssh-keygen failed: " + out);
        }
    }

    @Override
    public void close() throws IOException {
        process.destroy();
        // sshd removes its pid file as it exits: a walk of the folder meanwhile finds a file that is gone.
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }
}
