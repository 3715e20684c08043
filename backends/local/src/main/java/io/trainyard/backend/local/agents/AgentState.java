package io.trainyard.backend.local.agents;

/** An agent holds its lease (ACTIVE) or let it expire (LOST); a LOST agent must register again. */
public enum AgentState {
    ACTIVE, LOST
}
