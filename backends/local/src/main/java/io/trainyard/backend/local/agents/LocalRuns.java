package io.trainyard.backend.local.agents;

import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import io.trainyard.backend.local.placement.AgentPlacement;
import io.trainyard.job.JobState;
import io.trainyard.job.Placement;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads of the pool's active runs (its jobs in a {@link JobState#ACTIVE} state), a few columns each:
 * heartbeats read an agent's runs several times a second and dispatch passes read every placement, so neither
 * loads whole jobs with their configs.
 */
@Repository
public class LocalRuns {

    /** The backend name of the pool's jobs. */
    public static final String BACKEND = "local";
    /** {@link JobState#ACTIVE} as a list of SQL literals, for {@code state in (…)}. */
    static final String ACTIVE_STATES = JobState.ACTIVE.stream().map(state -> "'" + state + "'")
            .collect(Collectors.joining(", "));
    private static final String ACTIVE = "backend = '" + BACKEND + "' and state in (" + ACTIVE_STATES + ")";
    private static final String ACTIVE_OF_J = "j.backend = '" + BACKEND + "' and j.state in (" + ACTIVE_STATES + ")";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;

    public LocalRuns(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * An active run on an agent; {@code started}: the agent reported its processes started. {@code host}: which of
     * the job's hosts the agent is (0: the job's node, where rank 0 runs; then its placement's {@code moreHosts}).
     */
    public record ActiveRun(UUID jobId, int attempt, JobState state, boolean started, int host) {
    }

    /** A job holding part of one agent or several: the pool's capacity is the agents' inventory minus these. */
    public record ActivePlacement(UUID jobId, String project, String jobName, int workers, AgentPlacement placement) {
    }

    /** The active runs the agent has a share of: the jobs placed on it, and the other hosts' shares of gangs. */
    public List<ActiveRun> onAgent(String agentId) {
        return jdbc.sql("""
                select j.id, j.attempt, j.state, j.run_state is not null, 0 from jobs j where j.node_id = :agent and %1$s
                union all
                select j.id, j.attempt, j.state,
                       exists (select 1 from gang_hosts h where h.job_id = j.id and h.attempt = j.attempt and h.host = m.host),
                       m.host::int
                from jobs j cross join jsonb_array_elements(j.placement -> 'moreHosts') with ordinality m(share, host)
                where j.placement -> 'moreHosts' @> jsonb_build_array(jsonb_build_object('node', :agent::text))
                  and m.share ->> 'node' = :agent and %1$s""".formatted(ACTIVE_OF_J))
                .param("agent", agentId)
                .query((rs, row) -> new ActiveRun(rs.getObject(1, UUID.class), rs.getInt(2),
                        JobState.valueOf(rs.getString(3)), rs.getBoolean(4), rs.getInt(5)))
                .list();
    }

    /** What every active job of the pool holds, on whichever agent. */
    public List<ActivePlacement> placements() {
        return jdbc.sql("select id, project, job_name, slots, placement from jobs where placement is not null and " + ACTIVE)
                .query((rs, row) -> new ActivePlacement(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3),
                        rs.getInt(4), AgentPlacement.of(JSON.readValue(rs.getString(5), Placement.class))))
                .list();
    }
}
