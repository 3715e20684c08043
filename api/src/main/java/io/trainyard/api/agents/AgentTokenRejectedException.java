package io.trainyard.api.agents;

/** An agent request without the right token: answered 401. */
public class AgentTokenRejectedException extends RuntimeException {

    public AgentTokenRejectedException(String message) {
        super(message);
    }
}
