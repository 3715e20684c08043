package io.trainyard.openapi;

import java.util.Map;

import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.trainyard.security.limits.RateLimited;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;

/**
 * The error answers of every operation, derived from what the server does with each kind of input, so that
 * a new endpoint is documented truthfully without repeating them: 401 and 403 from the security filters; 400
 * for a parameter or body Jackson or Spring cannot read, or a URL the firewall rejects (any operation); 404 for a path
 * naming something that does not exist (or that the caller may not see); 413 and 415 for a body that is too large or
 * not JSON; 422 listing each
 * invalid field; 429 with Retry-After for rate-limited operations, and for any once the caller's address has failed
 * to authenticate too often. Errors an operation declares itself (409)
 * get the same problem schema. Each is an {@code application/problem+json} {@link Problem}.
 */
class ErrorResponses implements GlobalOperationCustomizer, GlobalOpenApiCustomizer {

    static final String PROBLEM_JSON = "application/problem+json";
    private static final String PROBLEM_REF = "#/components/schemas/Problem";

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        ApiResponses responses = operation.getResponses();
        boolean body = false;
        boolean pathVariable = false;
        boolean parameter = false;
        for (MethodParameter methodParameter : handler.getMethodParameters()) {
            body |= methodParameter.hasParameterAnnotation(RequestBody.class);
            boolean isPath = methodParameter.hasParameterAnnotation(PathVariable.class);
            boolean isInput = isPath || methodParameter.hasParameterAnnotation(RequestParam.class)
                    || methodParameter.hasParameterAnnotation(RequestHeader.class);
            pathVariable |= isPath;
            parameter |= isInput;
        }
        add(responses, "401", "No bearer token, or one that is unknown, expired or revoked")
                .addHeaderObject("WWW-Authenticate", header("Bearer realm=\"trainyard\", with error=\"invalid_token\" for a refused token"));
        add(responses, "403", "The token may not do this: a role the caller lacks in the project, an operation for global "
                + "admins only, or an agent token outside the agent protocol");
        add(responses, "400", "A request the server cannot read: a parameter of the wrong type, a body that is not JSON "
                + "of the expected shape (`errors` names the field), or a malformed URL");
        if (pathVariable) {
            add(responses, "404", "Nothing of that name or id, or nothing the caller may see");
        }
        if (body) {
            add(responses, "413", "The body is larger than the server accepts");
            add(responses, "415", "The body is not application/json");
        }
        if (body || parameter) {
            add(responses, "422", "Invalid input: `errors` lists every invalid field with its path");
        }
        add(responses, "429", (handler.hasMethodAnnotation(RateLimited.class) ? "Over the caller's rate limit, or too many" : "Too many")
                + " failed authentications from the caller's address; try again after Retry-After seconds")
                .addHeaderObject("Retry-After", new Header().description("Seconds to wait").schema(new IntegerSchema()));
        responses.forEach((code, response) -> {
            if (code.startsWith("4") || code.startsWith("5")) {
                response.setContent(problemContent());
            }
        });
        return operation;
    }

    /** The problem schema, shared by every error answer. */
    @Override
    public void customise(OpenAPI openApi) {
        Map<String, Schema> schemas = ModelConverters.getInstance(true).readAll(Problem.class);
        schemas.forEach(openApi.getComponents()::addSchemas);
    }

    private static ApiResponse add(ApiResponses responses, String code, String description) {
        return responses.computeIfAbsent(code, missing -> new ApiResponse().description(description));
    }

    private static Content problemContent() {
        return new Content().addMediaType(PROBLEM_JSON, new MediaType().schema(new Schema<>().$ref(PROBLEM_REF)));
    }

    private static Header header(String description) {
        return new Header().description(description).schema(new StringSchema());
    }
}
