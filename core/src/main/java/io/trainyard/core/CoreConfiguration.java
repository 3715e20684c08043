package io.trainyard.core;

import java.time.Clock;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TrainyardProperties.class)
public class CoreConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
