package io.trainyard.agent.sandbox;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import io.trainyard.agent.trainer.WorkFolder;

/**
 * What shuts a job's trainer processes off from the agent, the server and other jobs on the host. A trainer runs
 * code of whoever may submit to its project, so it must not reach the secrets of the process that starts it
 * (the server's admin token, agent tokens, database credentials) or anything of another project's jobs.
 */
public interface TrainerSandbox {

    /**
     * Makes the job's work folder usable by its trainers before an attempt starts (its owner, a private temp).
     */
    void prepare(WorkFolder folder) throws IOException;

    /** Frees what {@link #prepare} set aside for the attempt's trainers once they have all ended. */
    void release(WorkFolder folder) throws IOException;

    /**
     * The words put before a trainer's argv to run it inside the sandbox, in its work folder; empty when it runs
     * unconfined. The sandboxed trainer starts with SIGTERM and SIGINT at their default actions, however the
     * supervisor left them.
     */
    List<String> command(WorkFolder folder, int attempt);

    /**
     * The output paths this agent may delete before a run, refused when one leads outside the work folder: the
     * agent deletes with more rights than the trainer has, so a path the trainer could plant (a symbolic link
     * to another folder) must not redirect it.
     *
     * @throws IOException naming the first path outside the work folder
     */
    List<Path> deletable(WorkFolder folder, List<Path> paths) throws IOException;

    /** One line for the agent's start-up log: how trainers run. */
    String describe();
}
