package io.trainyard.backend.local.agents;

import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The started hosts of jobs spanning several agents (table {@code gang_hosts}): their processes, where the first
 * host's world meets, and which hosts' processes all exited 0. Hosts are numbered as the placement lists them:
 * 0 is the job's node (rank 0), then its {@code moreHosts}. Written under the job's row lock.
 */
@Repository
public class GangHosts {

    private final JdbcClient jdbc;

    public GangHosts(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The host's processes are started; {@code rendezvous} on the first host, else null. A resent report changes nothing. */
    public void started(UUID jobId, int attempt, int host, String nodeId, String runState, String rendezvous) {
        jdbc.sql("""
                insert into gang_hosts (job_id, attempt, host, node_id, run_state, rendezvous) values (?, ?, ?, ?, ?, ?)
                on conflict (job_id, attempt, host) do nothing""")
                .params(jobId, attempt, host, nodeId, runState, rendezvous)
                .update();
    }

    /** Where the attempt's world meets, once its first host started. */
    public Optional<String> rendezvous(UUID jobId, int attempt) {
        return jdbc.sql("select rendezvous from gang_hosts where job_id = ? and attempt = ? and host = 0")
                .params(jobId, attempt).query(String.class).optional();
    }

    /** The processes the host reported started, for its agent to re-attach to. */
    public Optional<String> runState(UUID jobId, int attempt, int host) {
        return jdbc.sql("select run_state from gang_hosts where job_id = ? and attempt = ? and host = ?")
                .params(jobId, attempt, host).query(String.class).optional();
    }

    /** Records that the host's processes all exited 0; returns how many of the attempt's hosts have now. */
    public int succeeded(UUID jobId, int attempt, int host) {
        jdbc.sql("update gang_hosts set succeeded = true where job_id = ? and attempt = ? and host = ?")
                .params(jobId, attempt, host).update();
        return jdbc.sql("select count(*) from gang_hosts where job_id = ? and attempt = ? and succeeded")
                .params(jobId, attempt).query(Integer.class).single();
    }
}
