package io.trainyard.server;

import io.trainyard.security.audit.AuditInterceptor;
import io.trainyard.security.limits.RateLimits;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Per-token rate limits before a handler runs, and the audit record of every state change after it. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

    private final RateLimits rateLimits;
    private final AuditInterceptor audit;

    WebConfiguration(RateLimits rateLimits, AuditInterceptor audit) {
        this.rateLimits = rateLimits;
        this.audit = audit;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(rateLimits);
        registry.addInterceptor(audit);
    }
}
