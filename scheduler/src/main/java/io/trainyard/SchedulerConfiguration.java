package io.trainyard;

import java.time.Clock;

import io.trainyard.agent.AgentProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({TrainyardProperties.class, AgentProperties.class})
public class SchedulerConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
