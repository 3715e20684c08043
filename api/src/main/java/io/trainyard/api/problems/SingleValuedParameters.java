package io.trainyard.api.problems;

import java.util.Collection;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.MethodParameter;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * A query parameter the contract gives one value, sent several times, is refused (400) before the handler runs.
 * Spring would bind only the first value and drop the rest without a word, so {@code attempt=&attempt=x} read as
 * "no attempt" and answered 200 for a request no schema allows. Parameters bound to a list stay repeatable.
 */
@Component
public class SingleValuedParameters implements HandlerInterceptor {

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod method) {
            for (MethodParameter parameter : method.getMethodParameters()) {
                RequestParam annotation = parameter.getParameterAnnotation(RequestParam.class);
                if (annotation == null || takesManyValues(parameter)) {
                    continue;
                }
                String name = annotation.name().isEmpty() ? parameter.getParameterName() : annotation.name();
                String[] values = name == null ? null : request.getParameterValues(name);
                if (values != null && values.length > 1) {
                    throw new RepeatedParameterException(name);
                }
            }
        }
        return true;
    }

    private static boolean takesManyValues(MethodParameter parameter) {
        Class<?> type = parameter.getParameterType();
        return type.isArray() || Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type);
    }

    /** A single-valued query parameter given more than once. */
    public static class RepeatedParameterException extends RuntimeException {

        private final String parameter;

        RepeatedParameterException(String parameter) {
            super(parameter + " is given more than once; it takes one value");
            this.parameter = parameter;
        }

        public String parameter() {
            return parameter;
        }
    }
}
