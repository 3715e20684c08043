package io.trainyard.server;

import io.trainyard.api.problems.StrictQueryParameters;
import io.trainyard.security.audit.AuditInterceptor;
import io.trainyard.security.limits.RateLimits;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Before a handler runs: query parameters Spring would bend into a valid request are refused, then per-token rate
 * limits apply; after it, the audit record of every state change.
 */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

    private final StrictQueryParameters strictQueryParameters;
    private final RateLimits rateLimits;
    private final AuditInterceptor audit;

    WebConfiguration(StrictQueryParameters strictQueryParameters, RateLimits rateLimits, AuditInterceptor audit) {
        this.strictQueryParameters = strictQueryParameters;
        this.rateLimits = rateLimits;
        this.audit = audit;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(strictQueryParameters);
        registry.addInterceptor(rateLimits);
        registry.addInterceptor(audit);
    }
}
