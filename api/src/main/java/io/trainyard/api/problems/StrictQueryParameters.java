package io.trainyard.api.problems;

import java.util.Collection;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Refuses (400), before the handler runs, the query parameters Spring's binding would quietly bend into a valid
 * request:
 * <ul>
 *   <li>a parameter the contract gives one value, sent several times: Spring binds the first and drops the rest, so
 *       {@code attempt=&attempt=x} read as "no attempt" and answered 200 for a request no schema allows;</li>
 *   <li>a typed value (an enum, a number, a time) with whitespace or control characters around it: Spring trims it
 *       ({@link String#trim()}: every character up to U+0020), and a value of only those becomes "absent", so
 *       {@code outcome=%0D} or {@code outcome=%0E} read as "any outcome". Text parameters keep their spaces, which may
 *       be meant.</li>
 * </ul>
 */
@Component
public class StrictQueryParameters implements HandlerInterceptor {

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod method) {
            for (MethodParameter parameter : method.getMethodParameters()) {
                RequestParam annotation = parameter.getParameterAnnotation(RequestParam.class);
                String name = annotation == null || annotation.name().isEmpty() ? parameter.getParameterName() : annotation.name();
                String[] values = annotation == null || name == null ? null : request.getParameterValues(name);
                if (values != null) {
                    check(parameter, name, values);
                }
            }
        }
        return true;
    }

    private static void check(MethodParameter parameter, String name, String[] values) {
        boolean many = takesManyValues(parameter);
        if (!many && values.length > 1) {
            throw new BadParameterException(name, "takes one value; it was given more than once");
        }
        if (isText(parameter, many)) {
            return;
        }
        for (String value : values) {
            // A list is also bound from one comma-separated value, each piece trimmed.
            for (String piece : many ? value.split(",", -1) : new String[] {value}) {
                // trim() for what Spring takes away (control characters too), strip() for Unicode's other spaces.
                if (!piece.equals(piece.trim()) || !piece.equals(piece.strip())) {
                    throw new BadParameterException(name, "has whitespace or control characters around its value; send the value alone");
                }
            }
        }
    }

    private static boolean takesManyValues(MethodParameter parameter) {
        Class<?> type = parameter.getParameterType();
        return type.isArray() || Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type);
    }

    private static boolean isText(MethodParameter parameter, boolean many) {
        ResolvableType type = ResolvableType.forMethodParameter(parameter);
        Class<?> valueType = many ? (type.isArray() ? type.getComponentType() : type.asCollection().getGeneric(0)).resolve() : type.resolve();
        return valueType == null || CharSequence.class.isAssignableFrom(valueType);
    }

    /** A query parameter Spring would have bent into a valid request. */
    public static class BadParameterException extends RuntimeException {

        private final String parameter;
        private final String reason;

        BadParameterException(String parameter, String reason) {
            super(parameter + " " + reason);
            this.parameter = parameter;
            this.reason = reason;
        }

        public String parameter() {
            return parameter;
        }

        public String reason() {
            return reason;
        }
    }
}
