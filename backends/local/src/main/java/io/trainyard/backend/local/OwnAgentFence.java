package io.trainyard.backend.local;

import io.trainyard.agent.run.FenceDeadline;
import io.trainyard.backend.local.agents.AgentProperties;
import io.trainyard.core.EmbeddedDatabaseStart;
import io.trainyard.core.TrainyardProperties;
import org.springframework.stereotype.Component;

/**
 * The fence of the server's own agent on the embedded database, where only this server (or the next one on its data
 * directory) can declare that agent lost. Before the database starts, the trainers that the previous server's agent
 * left running (the server was killed, its agent with it) get a fence deadline owned by this process, held a lease
 * less one heartbeat interval ahead until the agent reaper starts; and the new agent owns the fence too, so its
 * supervisors let the trainers run on while this server is gone (see FenceDeadline and README, Outages).
 */
@Component
class OwnAgentFence implements EmbeddedDatabaseStart {

    private final TrainyardProperties trainyard;
    private final AgentProperties agents;
    private volatile boolean onEmbeddedDatabase;

    OwnAgentFence(TrainyardProperties trainyard, AgentProperties agents) {
        this.trainyard = trainyard;
        this.agents = agents;
    }

    @Override
    public void beforeStart() {
        onEmbeddedDatabase = true;
        FenceDeadline.holdAtStart(trainyard.dataDir(), agents.lease().minus(agents.heartbeatInterval()));
    }

    /** Whether the server's own agent owns its fence: on the embedded database only. */
    boolean ownedByThisServer() {
        return onEmbeddedDatabase;
    }
}
