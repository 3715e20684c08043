package io.trainyard.api.problems;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * What reaches the servlet container's error page (a request Tomcat itself refuses, an error outside Spring MVC)
 * is answered like every other error: a problem detail, instead of Spring Boot's own error JSON.
 */
@Hidden
@RestController
class ServletErrors implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer value && HttpStatus.resolve(value) != null
                ? HttpStatus.valueOf(value) : HttpStatus.INTERNAL_SERVER_ERROR;
        if (isUnreadableQuery(request.getAttribute(RequestDispatcher.ERROR_EXCEPTION))) {
            status = HttpStatus.BAD_REQUEST;
        }
        ProblemDetail problem = ProblemDetail.forStatus(status);
        problem.setTitle(status.getReasonPhrase());
        return ResponseEntity.status(status).body(problem);
    }

    /** A query string Tomcat cannot parse (a parameter without a name, "?=x"), found when a filter first reads it. */
    private static boolean isUnreadableQuery(Object exception) {
        for (Object cause = exception; cause instanceof Throwable throwable; cause = throwable.getCause()) {
            if (cause instanceof InvalidParameterException) {
                return true;
            }
        }
        return false;
    }
}
