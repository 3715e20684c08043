package io.trainyard.backend.slurm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code trainyard.slurm.*}. The backend exists only when {@code enabled} is true; the server then
 * runs Slurm's commands ({@code sbatch}, {@code squeue}, {@code sinfo}, {@code scancel}) itself, so it must be a
 * submit host of the cluster (any host with the cluster's {@code slurm.conf} and munge key), or over SSH on a login
 * node ({@code ssh}). Either way the server reads and writes the jobs' work folders under {@code workRoot}.
 *
 * @param enabled turns the backend on
 * @param conf the cluster's {@code slurm.conf}, passed to the commands as {@code SLURM_CONF}; none: Slurm's default
 *     (with {@code ssh}, a path on the login node)
 * @param ssh a login node to run the commands on instead of this server; none: the server is a submit host
 * @param workRoot a folder on the filesystem the nodes share, seen at the same path by the server: each job's work
 *     folder (configs, outputs, one output file per rank) is {@code <workRoot>/jobs/<job id>}
 * @param partition the partition of jobs whose project names none ({@code --partition}); none: the cluster's default
 * @param account the account jobs are charged to ({@code --account}); none: the user's default
 * @param qos the quality of service ({@code --qos}); none: the association's default
 * @param projects per project, the partition, account and QoS that replace the ones above
 * @param tasksPerNode workers per node: a job of N workers gets ceil(N / tasksPerNode) nodes, and with GPUs one GPU
 *     per worker ({@code --gres=gpu:<tasks on the node>})
 * @param trainerPath folders put first on the trainers' PATH on the nodes, e.g. the runtime's virtualenv's bin
 *     folder, so {@code python -m trainyard_runtime.train} finds it
 * @param pollInterval how often the backend looks at the queue: one {@code squeue} for all of its jobs
 * @param commandTimeout how long one Slurm command may take before it counts as failed (the controller unreachable)
 */
@ConfigurationProperties("trainyard.slurm")
public record SlurmProperties(
        boolean enabled,
        Path conf,
        Ssh ssh,
        Path workRoot,
        String partition,
        String account,
        String qos,
        Map<String, Allocation> projects,
        @DefaultValue("1") int tasksPerNode,
        List<Path> trainerPath,
        @DefaultValue("2s") Duration pollInterval,
        @DefaultValue("30s") Duration commandTimeout) {

    public SlurmProperties {
        projects = projects == null ? Map.of() : Map.copyOf(projects);
        trainerPath = trainerPath == null ? List.of() : List.copyOf(trainerPath);
        if (enabled && workRoot == null) {
            throw new IllegalArgumentException("trainyard.slurm.work-root must name a folder the Slurm nodes share");
        }
        if (tasksPerNode < 1) {
            throw new IllegalArgumentException("trainyard.slurm.tasks-per-node must be at least 1");
        }
    }

    /**
     * A login node of the cluster, reached with OpenSSH's {@code ssh}.
     *
     * @param user the account on it; none: the server's user's name
     * @param identityFile the private key to log in with, e.g. a key made for the server alone; named to {@code ssh},
     *     never read by the server
     * @param knownHostsFile the login node's host key, checked strictly; none: the server's user's
     *     {@code ~/.ssh/known_hosts}
     */
    public record Ssh(String host, @DefaultValue("22") int port, String user, Path identityFile, Path knownHostsFile) {

        public Ssh {
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("trainyard.slurm.ssh.host must name the login node");
            }
            if (identityFile == null) {
                throw new IllegalArgumentException("trainyard.slurm.ssh.identity-file must name the private key to log in with");
            }
        }
    }

    /** Where a project's jobs go and who pays: each unset part falls back to the server's setting. */
    public record Allocation(String partition, String account, String qos) {
    }

    /** The allocation of a project's jobs. */
    Allocation allocationOf(String project) {
        Allocation own = projects.get(project);
        if (own == null) {
            return new Allocation(partition, account, qos);
        }
        return new Allocation(own.partition() != null ? own.partition() : partition, own.account() != null ? own.account() : account,
                own.qos() != null ? own.qos() : qos);
    }
}
