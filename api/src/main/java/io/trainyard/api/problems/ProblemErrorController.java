package io.trainyard.api.problems;

import io.swagger.v3.oas.annotations.Hidden;
import io.trainyard.database.DatabaseFailures;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Whatever reaches the servlet container's error page (an exception no handler answered, a request Tomcat
 * refused before Spring MVC) answers a problem detail, never Spring's whitelabel page, whatever the request
 * accepts; the details of an unexpected exception stay in the server's log.
 */
@Hidden
@RestController
public class ProblemErrorController implements ErrorController {

    @RequestMapping(path = "/error", produces = {MediaType.APPLICATION_PROBLEM_JSON_VALUE, MediaType.ALL_VALUE})
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Throwable failure = (Throwable) request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer value && HttpStatus.resolve(value) != null
                ? HttpStatus.valueOf(value) : HttpStatus.INTERNAL_SERVER_ERROR;
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (failure != null && DatabaseFailures.isUnreachable(failure)) {
            status = HttpStatus.SERVICE_UNAVAILABLE;
            answer = ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .header(HttpHeaders.RETRY_AFTER, Integer.toString(DatabaseUnavailableFilter.RETRY_AFTER_SECONDS));
        }
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, status.is5xxServerError()
                ? "the server failed to answer this request; see its log" : status.getReasonPhrase());
        problem.setTitle(status.getReasonPhrase());
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        if (uri != null) {
            problem.setInstance(java.net.URI.create(uri.toString()));
        }
        return answer.body(problem);
    }
}
