package io.trainyard.openapi;

import java.util.List;

import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import io.swagger.v3.oas.annotations.servers.Server;
import io.trainyard.backend.BackendDescription;
import io.trainyard.backend.BackendProtocol;
import org.springdoc.core.filters.OpenApiMethodFilter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The public API's OpenAPI document at {@code /v3/api-docs} (committed as {@code api/openapi.yaml}, the source
 * of the generated clients): every operation but those of a {@link BackendProtocol}, which its backend
 * documents in a group of its own (the agent protocol at {@code /v3/api-docs/agent-protocol}). The server is a
 * fixed example so that the served document does not depend on the port it was fetched from.
 */
@Configuration(proxyBeanMethods = false)
@OpenAPIDefinition(info = @Info(title = "Trainyard", version = "v1",
        description = "A control plane for GiGL trainer jobs: submit, follow, cancel and retry them on a pool of GPU "
                + "hosts or Vertex AI. Every error is an RFC 9457 problem detail (application/problem+json); invalid "
                + "input lists each offending field in `errors`."),
        servers = @Server(url = "http://localhost:8080", description = "A server on this machine (the default address)"),
        security = @SecurityRequirement(name = OpenApiConfiguration.BEARER))
@SecurityScheme(name = OpenApiConfiguration.BEARER, type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "An API token (ty_…, made with POST /tokens; the first admin's is in <data-dir>/admin-token), "
                + "an agent token (tya_…, agent protocol only), or a JWT of the configured OIDC issuer")
class OpenApiConfiguration {

    static final String BEARER = "bearer";

    /** The default document, /v3/api-docs: everything but the backends' own protocols. */
    @Bean
    OpenApiMethodFilter publicApi() {
        return method -> !method.getDeclaringClass().isAnnotationPresent(BackendProtocol.class);
    }

    @Bean
    ErrorResponses errorResponses() {
        return new ErrorResponses();
    }

    @Bean
    LogStreamEvents logStreamEvents() {
        return new LogStreamEvents();
    }

    @Bean
    BackendPlacements backendPlacements(List<BackendDescription> modules) {
        return new BackendPlacements(modules);
    }

    @Bean
    ConfigPairs configPairs() {
        return new ConfigPairs();
    }

    /** Required and nullable properties of the API's records, from their JSpecify annotations. */
    @Bean
    ModelConverter recordNullability() {
        return new RecordNullability();
    }
}
