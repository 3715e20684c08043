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
    private static final String ACTIVE = "backend = '" + BACKEND + "' and state in ("
            + JobState.ACTIVE.stream().map(state -> "'" + state + "'").collect(Collectors.joining(", ")) + ")";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;

    public LocalRuns(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** An active run on an agent; {@code started}: the agent reported its processes started. */
    public record ActiveRun(UUID jobId, int attempt, JobState state, boolean started) {
    }

    /** A job holding part of an agent: the pool's capacity is the agents' inventory minus these. */
    public record ActivePlacement(UUID jobId, String project, String jobName, int workers, AgentPlacement placement) {
    }

    public List<ActiveRun> onAgent(String agentId) {
        return jdbc.sql("select id, attempt, state, run_state is not null from jobs where node_id = ? and " + ACTIVE)
                .param(agentId)
                .query((rs, row) -> new ActiveRun(rs.getObject(1, UUID.class), rs.getInt(2),
                        JobState.valueOf(rs.getString(3)), rs.getBoolean(4)))
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
