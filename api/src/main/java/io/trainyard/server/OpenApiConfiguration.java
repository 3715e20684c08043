package io.trainyard.server;

import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import org.springframework.context.annotation.Configuration;

/** The OpenAPI document's title and its one security scheme: a bearer token on every operation. */
@Configuration(proxyBeanMethods = false)
@OpenAPIDefinition(info = @Info(title = "Trainyard", version = "v1",
        description = "A control plane for GiGL trainer jobs: submit, follow, cancel and retry them on a pool of GPU "
                + "hosts or Vertex AI."),
        security = @SecurityRequirement(name = OpenApiConfiguration.BEARER))
@SecurityScheme(name = OpenApiConfiguration.BEARER, type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "An API token (ty_…, made with POST /tokens; the first admin's is in <data-dir>/admin-token), "
                + "an agent token (tya_…, agent protocol only), or a JWT of the configured OIDC issuer")
class OpenApiConfiguration {

    static final String BEARER = "bearer";
}
