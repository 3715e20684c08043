package io.trainyard.backend.threads;

import io.trainyard.backend.BackendDescription;
import io.trainyard.core.TrainyardProperties;
import io.trainyard.job.JobTransitions;
import io.trainyard.logs.LogWriter;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The thread backend, on only where {@code trainyard.threads-for-tests.enabled=true}: a test turns it on. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "trainyard.threads-for-tests.enabled", havingValue = "true")
public class ThreadBackendConfiguration {

    @Bean
    BackendDescription threadBackendDescription() {
        return ThreadBackend.DESCRIPTION;
    }

    @Bean
    ThreadBackend threadBackend(TrainyardProperties properties, JobTransitions transitions, LogWriter logs) {
        return new ThreadBackend(properties.nodeId(), transitions, logs);
    }
}
