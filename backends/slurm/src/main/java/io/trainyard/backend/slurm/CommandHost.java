package io.trainyard.backend.slurm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Where Slurm's commands run: on the server itself, or on a login node of the cluster over SSH. */
sealed interface CommandHost {

    /** The process that runs a Slurm command, e.g. {@code [squeue, --noheader]}. */
    List<String> argv(List<String> command);

    /** What the process's environment has beside {@code PATH}, {@code HOME} and {@code LANG}. */
    Map<String, String> environment();

    /** The host that runs a server with the settings' {@code ssh}, or this server without them. */
    static CommandHost of(SlurmProperties properties) {
        SlurmProperties.Ssh ssh = properties.ssh();
        return ssh == null ? new ThisServer(properties.conf()) : new LoginNode(ssh, properties.conf(), controlFolder());
    }

    /**
     * The server is a submit host: Slurm's client commands are installed here, with the cluster's munge key.
     *
     * @param conf the cluster's {@code slurm.conf} ({@code SLURM_CONF}); null: Slurm's default
     */
    record ThisServer(Path conf) implements CommandHost {

        @Override
        public List<String> argv(List<String> command) {
            return command;
        }

        @Override
        public Map<String, String> environment() {
            return conf == null ? Map.of() : Map.of("SLURM_CONF", conf.toString());
        }
    }

    /**
     * A login node, reached with OpenSSH's client as dstack does: the key file is only named to {@code ssh}, never read
     * by the server, so it cannot reach a log or an API answer. One connection is shared by the commands and kept a
     * minute after the last ({@code ControlMaster}), so the queue's poll every few seconds costs no new handshake.
     * Host keys are checked strictly, against the settings' known-hosts file or the server user's.
     *
     * @param conf {@code SLURM_CONF} on the login node; null: the login node's default
     * @param controlFolder where the shared connection's socket lives: a folder only the server's user can enter
     */
    record LoginNode(SlurmProperties.Ssh ssh, Path conf, Path controlFolder) implements CommandHost {

        @Override
        public List<String> argv(List<String> command) {
            List<String> argv = new ArrayList<>(List.of("ssh", "-T", "-p", Integer.toString(ssh.port()),
                    "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-i", ssh.identityFile().toString(),
                    "-o", "StrictHostKeyChecking=yes", "-o", "ConnectTimeout=10", "-o", "LogLevel=ERROR",
                    "-o", "ControlMaster=auto", "-o", "ControlPersist=60", "-o", "ControlPath=" + controlFolder.resolve("%C")));
            if (ssh.knownHostsFile() != null) {
                argv.addAll(List.of("-o", "UserKnownHostsFile=" + ssh.knownHostsFile()));
            }
            if (ssh.user() != null) {
                argv.addAll(List.of("-l", ssh.user()));
            }
            argv.addAll(List.of("--", ssh.host(), remoteCommand(command)));
            return argv;
        }

        @Override
        public Map<String, String> environment() {
            return Map.of();
        }

        /** The command as the login node's shell reads it: every word quoted, {@code SLURM_CONF} set by {@code env}. */
        private String remoteCommand(List<String> command) {
            List<String> words = new ArrayList<>();
            if (conf != null) {
                words.addAll(List.of("env", "SLURM_CONF=" + conf));
            }
            words.addAll(command);
            return String.join(" ", words.stream().map(LoginNode::quoted).toList());
        }

        private static String quoted(String word) {
            return "'" + word.replace("'", "'\\''") + "'";
        }
    }

    private static Path controlFolder() {
        try {
            return Files.createTempDirectory("trainyard-ssh", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new UncheckedIOException("no folder for the SSH connection's socket", e);
        }
    }
}
