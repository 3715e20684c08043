package io.trainyard.api.agents;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Checks the agent token once for every call of the agent protocol (every path under {@code /agents/{id}}),
 * before its arguments are read; the listing of agents ({@code GET /agents}) is not the protocol.
 */
@Component
public class AgentTokenInterceptor implements HandlerInterceptor {

    private final AgentToken token;

    public AgentTokenInterceptor(AgentToken token) {
        this.token = token;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        token.check(request.getHeader(HttpHeaders.AUTHORIZATION));
        return true;
    }
}
