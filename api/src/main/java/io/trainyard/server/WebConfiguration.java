package io.trainyard.server;

import io.trainyard.api.problems.SingleValuedParameters;
import io.trainyard.security.audit.AuditInterceptor;
import io.trainyard.security.limits.RateLimits;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Before a handler runs: a repeated single-valued query parameter is refused, then per-token rate limits apply;
 * after it, the audit record of every state change.
 */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

    private final SingleValuedParameters singleValuedParameters;
    private final RateLimits rateLimits;
    private final AuditInterceptor audit;

    WebConfiguration(SingleValuedParameters singleValuedParameters, RateLimits rateLimits, AuditInterceptor audit) {
        this.singleValuedParameters = singleValuedParameters;
        this.rateLimits = rateLimits;
        this.audit = audit;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(singleValuedParameters);
        registry.addInterceptor(rateLimits);
        registry.addInterceptor(audit);
    }
}
