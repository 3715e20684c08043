package io.trainyard.api.backends;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.backend.Backend;
import io.trainyard.validation.NotFoundException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/backends")
@Tag(name = "backends", description = "What runs jobs on this server")
public class BackendController {

    /** How backends are named (e.g. {@code local}, {@code vertex-ai}, {@code slurm}): what the path accepts. */
    static final String NAME = "^[a-z0-9][a-z0-9-]{0,62}$";

    private final List<Backend> backends;

    public BackendController(List<Backend> backends) {
        this.backends = backends;
    }

    @GetMapping("/{name}/partitions")
    @Operation(operationId = "getBackendPartitions", summary = "The partitions of the cluster a backend submits to, with the CPUs "
            + "and GPUs in use on each node: for the backends whose partitions is true")
    public PartitionsView partitions(@Parameter(schema = @Schema(pattern = NAME, example = "slurm")) @PathVariable String name) {
        Backend backend = backends.stream()
                .filter(candidate -> candidate.name().equals(name) && candidate.description().partitions())
                .findFirst()
                .orElseThrow(() -> new NotFoundException("No such backend", "No backend '" + name + "' that lists partitions"));
        return PartitionsView.of(name, backend.partitions().orElse(null));
    }

    @GetMapping
    @Operation(operationId = "listBackends", summary = "The backends of this server, in the order a submission's resource "
            + "config is matched against them")
    public List<BackendView> list() {
        return backends.stream().map(backend -> BackendView.of(backend.description())).toList();
    }
}
