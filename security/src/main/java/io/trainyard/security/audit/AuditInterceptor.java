package io.trainyard.security.audit;

import io.trainyard.security.Callers;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Writes every answered call of an {@link Audited} handler to the audit log: the caller, the action, the
 * target (the created resource's path where the answer names one, else the request's path), the client's
 * address and the outcome the status code tells. A failure to write the audit record is logged, never
 * turned into a failure of the request that already happened.
 */
@Component
public class AuditInterceptor implements HandlerInterceptor {

    private static final Logger log = LoggerFactory.getLogger(AuditInterceptor.class);
    private static final String RECORDED_WITH_CHANGE = AuditInterceptor.class.getName() + ".recordedWithChange";

    private final AuditLog auditLog;

    public AuditInterceptor(AuditLog auditLog) {
        this.auditLog = auditLog;
    }

    /** Says that the request's record was written in the transaction of the change it records, so not again here. */
    public static void recordedWithChange(HttpServletRequest request) {
        request.setAttribute(RECORDED_WITH_CHANGE, Boolean.TRUE);
    }

    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
        if (!(handler instanceof HandlerMethod method) || !method.hasMethodAnnotation(Audited.class)
                || request.getAttribute(RECORDED_WITH_CHANGE) != null) {
            return;
        }
        String action = method.getMethodAnnotation(Audited.class).value();
        String location = response.getHeader(HttpHeaders.LOCATION);
        int status = response.getStatus();
        try {
            auditLog.record(actor(), action, location != null ? location : request.getRequestURI(), request.getRemoteAddr(),
                    outcome(status), "HTTP " + status);
        } catch (RuntimeException e) {
            log.error("Could not write the audit record of {} {} ({}): {}", request.getMethod(), request.getRequestURI(), action,
                    e.toString());
        }
    }

    private static String actor() {
        try {
            return Callers.current().name();
        } catch (AccessDeniedException e) {
            return "anonymous";
        }
    }

    static AuditLog.Outcome outcome(int status) {
        if (status < 400) {
            return AuditLog.Outcome.SUCCEEDED;
        }
        return switch (status) {
            case 401, 403 -> AuditLog.Outcome.DENIED;
            case 404 -> AuditLog.Outcome.NOT_FOUND;
            default -> status >= 500 ? AuditLog.Outcome.FAILED : AuditLog.Outcome.REJECTED;
        };
    }
}
