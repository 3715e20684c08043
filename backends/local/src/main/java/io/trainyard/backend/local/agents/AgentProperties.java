package io.trainyard.backend.local.agents;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code trainyard.agent.*}.
 *
 * @param heartbeatInterval how often an agent renews its lease
 * @param lease how long a lease lasts; an agent silent for longer is declared lost and its jobs fail
 */
@ConfigurationProperties("trainyard.agent")
public record AgentProperties(
        @DefaultValue("2s") Duration heartbeatInterval,
        @DefaultValue("15s") Duration lease) {
}
