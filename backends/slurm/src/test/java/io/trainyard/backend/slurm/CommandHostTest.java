package io.trainyard.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class CommandHostTest {

    @Test
    void onThisServerACommandRunsAsGivenWithTheClustersConf() {
        CommandHost here = new CommandHost.ThisServer(Path.of("/etc/slurm-a/slurm.conf"));

        assertThat(here.argv(List.of("squeue", "--noheader"))).containsExactly("squeue", "--noheader");
        assertThat(here.environment()).containsEntry("SLURM_CONF", "/etc/slurm-a/slurm.conf");
    }

    @Test
    void onALoginNodeEachWordReachesItsShellQuotedWithTheKeyNamedAndHostKeysChecked() {
        SlurmProperties.Ssh ssh = new SlurmProperties.Ssh("login.hpc.example", 2222, "trainyard", Path.of("/keys/id_ed25519"),
                Path.of("/keys/known_hosts"));
        CommandHost login = new CommandHost.LoginNode(ssh, Path.of("/etc/slurm/slurm.conf"), Path.of("/tmp/ssh-x"));

        List<String> argv = login.argv(List.of("squeue", "--format=%i|%j", "it's"));

        assertThat(argv.getFirst()).isEqualTo("ssh");
        assertThat(String.join(" ", argv)).contains("-p 2222", "-i /keys/id_ed25519", "-o BatchMode=yes", "-o StrictHostKeyChecking=yes",
                "-o UserKnownHostsFile=/keys/known_hosts", "-l trainyard", "-o ControlPath=/tmp/ssh-x/%C");
        assertThat(argv.subList(argv.size() - 3, argv.size())).containsExactly("--", "login.hpc.example",
                "'env' 'SLURM_CONF=/etc/slurm/slurm.conf' 'squeue' '--format=%i|%j' 'it'\\''s'");
        assertThat(login.environment()).isEmpty();
    }
}
