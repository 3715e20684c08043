package io.trainyard.api.backends;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.backend.Backend;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/backends")
@Tag(name = "backends", description = "What runs jobs on this server")
public class BackendController {

    private final List<Backend> backends;

    public BackendController(List<Backend> backends) {
        this.backends = backends;
    }

    @GetMapping
    @Operation(operationId = "listBackends", summary = "The backends of this server, in the order a submission's resource "
            + "config is matched against them")
    public List<BackendView> list() {
        return backends.stream().map(backend -> BackendView.of(backend.description())).toList();
    }
}
