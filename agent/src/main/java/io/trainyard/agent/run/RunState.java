package io.trainyard.agent.run;

import java.util.List;

import tools.jackson.databind.json.JsonMapper;

/**
 * What a restarted server needs to find a run's processes again: each worker's supervisor pid and start
 * time (so a reused pid is not mistaken for it). Stored on the job as JSON.
 */
record RunState(List<Worker> workers) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    record Worker(int rank, long pid, long startedAtMillis) {
    }

    String toJson() {
        return JSON.writeValueAsString(this);
    }

    static RunState fromJson(String json) {
        return JSON.readValue(json, RunState.class);
    }
}
