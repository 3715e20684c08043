package io.trainyard.agent.sandbox;

import java.nio.file.Path;
import java.util.List;

import io.trainyard.agent.trainer.WorkFolder;

/**
 * Trainers run with the agent's own rights ({@code --trainer-isolation=none}): for a host whose every job is
 * trusted by whoever runs the agent, or one where bubblewrap cannot run. Any trainer can then read the agent's
 * and the server's secrets.
 */
final class Unconfined implements TrainerSandbox {

    @Override
    public void prepare(WorkFolder folder) {
        // the work folder is the agent's own
    }

    @Override
    public void release(WorkFolder folder) {
        // nothing was set aside
    }

    @Override
    public List<String> command(WorkFolder folder, int attempt) {
        return List.of();
    }

    @Override
    public List<Path> deletable(WorkFolder folder, List<Path> paths) {
        // The trainer could delete these itself: deleting them for it gives it nothing.
        return paths;
    }

    @Override
    public String describe() {
        return "trainers run unconfined, with this agent's rights (trainer isolation: none)";
    }
}
