package io.trainyard.api.problems;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import io.trainyard.security.limits.TooManyRequestsException;
import io.trainyard.validation.ConflictException;
import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.NotFoundException;
import io.trainyard.validation.Violation;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.validation.FieldError;
import org.springframework.validation.method.ParameterErrors;
import org.springframework.validation.method.ParameterValidationResult;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.InvalidNullException;
import tools.jackson.databind.exc.MismatchedInputException;

/**
 * Every error answer is an RFC 9457 problem detail; invalid input lists each offending field's path in
 * {@code errors} so a client can point at all of them at once.
 */
@RestControllerAdvice
public class ApiProblems extends ResponseEntityExceptionHandler {

    @ExceptionHandler(InvalidRequestException.class)
    ProblemDetail invalid(InvalidRequestException e) {
        return invalid(e.violations());
    }

    /** A request body that breaks its Bean Validation constraints (what agents send): the same answer. */
    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return ResponseEntity.unprocessableContent().body(invalid(fieldViolations(e.getBindingResult().getFieldErrors())));
    }

    /**
     * Broken constraints on a handler's parameters and its body together: the body's fields by their path, a
     * path variable or query parameter by its name.
     */
    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<Violation> violations = new ArrayList<>();
        for (ParameterValidationResult result : e.getParameterValidationResults()) {
            if (result instanceof ParameterErrors body) {
                violations.addAll(fieldViolations(body.getFieldErrors()));
            } else {
                result.getResolvableErrors().forEach(error ->
                        violations.add(new Violation(result.getMethodParameter().getParameterName(), error.getDefaultMessage())));
            }
        }
        return ResponseEntity.unprocessableContent().body(invalid(violations));
    }

    private static List<Violation> fieldViolations(List<FieldError> errors) {
        return errors.stream().map(error -> new Violation(error.getField(), error.getDefaultMessage())).toList();
    }

    private static ProblemDetail invalid(List<Violation> violations) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.UNPROCESSABLE_CONTENT,
                violations.size() == 1 ? violations.getFirst().toString() : violations.size() + " fields are invalid");
        problem.setTitle("Invalid request");
        problem.setProperty("errors", errors(violations));
        return problem;
    }

    @ExceptionHandler(NotFoundException.class)
    ProblemDetail notFound(NotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, e.title(), e.getMessage());
    }

    @ExceptionHandler(ConflictException.class)
    ProblemDetail conflict(ConflictException e) {
        return problem(HttpStatus.CONFLICT, "Conflict", e.getMessage());
    }

    @ExceptionHandler(AccessDeniedException.class)
    ProblemDetail forbidden(AccessDeniedException e) {
        return problem(HttpStatus.FORBIDDEN, "Forbidden", e.getMessage());
    }

    @ExceptionHandler(TooManyRequestsException.class)
    ResponseEntity<ProblemDetail> tooManyRequests(TooManyRequestsException e) {
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds()))
                .body(problem(HttpStatus.TOO_MANY_REQUESTS, "Too many requests", e.getMessage()));
    }

    @ExceptionHandler(RequestTooLargeException.class)
    ProblemDetail tooLarge(RequestTooLargeException e) {
        return problem(HttpStatus.CONTENT_TOO_LARGE, "Request body too large", e.getMessage());
    }

    /**
     * An Accept header that is not a list of media types is a malformed request (400); one that parses but names
     * nothing the server produces stays a 406. The problem is written as JSON whatever the Accept header says.
     */
    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotAcceptable(HttpMediaTypeNotAcceptableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        HttpStatus answer = HttpStatus.NOT_ACCEPTABLE;
        String detail = "nothing this endpoint produces matches Accept: " + accept;
        try {
            MediaType.parseMediaTypes(accept);
        } catch (InvalidMediaTypeException malformed) {
            answer = HttpStatus.BAD_REQUEST;
            detail = "the Accept header is not a list of media types: " + malformed.getMessage();
        }
        return ResponseEntity.status(answer).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(answer, answer == HttpStatus.BAD_REQUEST ? "Malformed Accept header" : "Not acceptable", detail));
    }

    private static ProblemDetail problem(HttpStatus status, String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setTitle(title);
        return problem;
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ProblemDetail badParameter(MethodArgumentTypeMismatchException e) {
        return badParameter(new Violation(e.getName(), "'" + e.getValue() + "' is not a valid value"));
    }

    @ExceptionHandler(StrictQueryParameters.BadParameterException.class)
    ProblemDetail strictParameter(StrictQueryParameters.BadParameterException e) {
        return badParameter(new Violation(e.parameter(), e.reason()));
    }

    private static ProblemDetail badParameter(Violation violation) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, violation.toString());
        problem.setTitle("Invalid request parameter");
        problem.setProperty("errors", errors(List.of(violation)));
        return problem;
    }

    /**
     * Malformed JSON or a value of the wrong type: say where (the JSON path Jackson reports) and what was expected,
     * in words of the API, never Jackson's own message (which names its classes and settings).
     */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        Throwable cause = e.getCause();
        if (cause instanceof RequestTooLargeException tooLarge) {
            return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).body(tooLarge(tooLarge));
        }
        Violation violation = unreadable(cause);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, violation.toString());
        problem.setTitle("Unreadable request body");
        problem.setProperty("errors", errors(List.of(violation)));
        return ResponseEntity.badRequest().body(problem);
    }

    private static Violation unreadable(Throwable cause) {
        if (cause instanceof DatabindException databind && !databind.getPath().isEmpty()) {
            String field = databind.getPathReference().replaceAll("^[^\\[]*\\[\"?", "").replaceAll("\"?\\]\\[\"?", ".")
                    .replaceAll("\"?\\]$", "");
            return new Violation(field, expectation(databind));
        }
        if (cause instanceof StreamReadException malformed && malformed.getLocation() != null) {
            return new Violation("body", "is not valid JSON (line " + malformed.getLocation().getLineNr() + ", column "
                    + malformed.getLocation().getColumnNr() + ")");
        }
        if (cause instanceof JacksonException) {
            return new Violation("body", "is not a JSON object of the expected shape");
        }
        return new Violation("body", "is required: a JSON object");
    }

    /** What the field should have been, from the type Jackson was reading. */
    private static String expectation(DatabindException e) {
        if (e instanceof InvalidNullException) {
            return "must not be null";
        }
        Class<?> target = e instanceof MismatchedInputException mismatch ? mismatch.getTargetType() : null;
        if (target == null) {
            return "has the wrong type or shape";
        }
        if (target.isEnum()) {
            return "must be one of " + String.join(", ", Arrays.stream(target.getEnumConstants()).map(Object::toString).toList());
        }
        if (target == int.class || target == Integer.class || target == long.class || target == Long.class) {
            return "must be an integer";
        }
        if (target == boolean.class || target == Boolean.class) {
            return "must be true or false";
        }
        if (target == String.class) {
            return "must be a string";
        }
        if (Map.class.isAssignableFrom(target) || target.isRecord()) {
            return "must be a JSON object";
        }
        if (Collection.class.isAssignableFrom(target) || target.isArray()) {
            return "must be a JSON array";
        }
        return "has the wrong type or shape";
    }

    private static List<Map<String, String>> errors(List<Violation> violations) {
        return violations.stream().map(v -> Map.of("field", v.field(), "message", v.message())).toList();
    }
}
