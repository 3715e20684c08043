package io.trainyard.backend.vertexai;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rank of a CustomJob's replica, from the task name Vertex AI gives it ({@code workerpool<pool>-<replica>}) in its
 * log entries and metrics: pool 0 is the leader (rank 0); replica r of pool 1 is rank r + 1, as torch.distributed
 * numbers them.
 */
final class TaskRanks {

    private static final Pattern TASK_NAME = Pattern.compile("workerpool(\\d+)-(\\d+)");

    private TaskRanks() {
    }

    /** Rank 0 for a name that is not a replica's. */
    static int of(String taskName) {
        Matcher task = TASK_NAME.matcher(taskName);
        if (!task.matches()) {
            return 0;
        }
        int pool = Integer.parseInt(task.group(1));
        int replica = Integer.parseInt(task.group(2));
        return pool == 0 ? 0 : replica + 1;
    }
}
