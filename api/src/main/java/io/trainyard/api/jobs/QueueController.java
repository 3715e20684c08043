package io.trainyard.api.jobs;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.dispatch.DispatchQueue;
import io.trainyard.security.ProjectAccess;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "jobs")
public class QueueController {

    private final DispatchQueue queue;
    private final JobController jobs;
    private final ProjectAccess access;

    public QueueController(DispatchQueue queue, JobController jobs, ProjectAccess access) {
        this.queue = queue;
        this.jobs = jobs;
        this.access = access;
    }

    @GetMapping("/queue")
    @Operation(operationId = "getQueue", summary = "Queued jobs in dispatch order, backend by backend, each with its queuePosition and waitingReason",
            description = "Computed from the placement logic against the pool's free capacity now (at most a second "
                    + "old); up to 1000 jobs per backend. Jobs of projects the caller may not see are left out, "
                    + "but keep their places.")
    public List<JobView> queue() {
        return queue.all().stream().filter(waiting -> access.canSee(waiting.job().getProject()))
                .map(waiting -> jobs.view(waiting.job())).toList();
    }
}
