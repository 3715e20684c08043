package io.trainyard.problem;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a problem detail straight to the response, for answers given outside Spring MVC: the API's request
 * filters, Spring Security's refusals and Tomcat's own error reports. (In the security module: the API's packages and
 * the security's use it, and security depends on no part of the API.)
 */
public final class ProblemJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ProblemJson() {
    }

    public static void write(HttpServletRequest request, HttpServletResponse response, HttpStatus status, String title,
            String detail) throws IOException {
        response.setStatus(status.value());
        response.setContentType("application/problem+json");
        response.getOutputStream().write(text(status.value(), title, detail, request.getRequestURI())
                .getBytes(StandardCharsets.UTF_8));
    }

    /** The problem detail's JSON text. */
    public static String text(int status, String title, String detail, String instance) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "about:blank");
        problem.put("title", title);
        problem.put("status", status);
        problem.put("detail", detail);
        problem.put("instance", instance);
        return JSON.writeValueAsString(problem);
    }
}
