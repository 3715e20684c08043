package io.trainyard.server;

import io.trainyard.api.agents.AgentTokenInterceptor;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** The agent protocol's token check, on every path under {@code /agents/{id}}. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

    private final AgentTokenInterceptor agentTokens;

    WebConfiguration(AgentTokenInterceptor agentTokens) {
        this.agentTokens = agentTokens;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(agentTokens).addPathPatterns("/agents/*", "/agents/*/**");
    }
}
