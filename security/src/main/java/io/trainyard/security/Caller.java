package io.trainyard.security;

import java.util.Map;
import java.util.UUID;

/** Who makes a request: a user (with a role per project, or a global admin) or an agent. */
public sealed interface Caller {

    /** How the audit log names the caller. */
    String name();

    /**
     * A person or service acting through an API token or an OIDC token.
     *
     * @param roles the user's role in each project it belongs to
     * @param tokenId the API token used, or null for an OIDC token
     */
    record User(String name, boolean globalAdmin, Map<String, Role> roles, UUID tokenId) implements Caller {

        public User {
            roles = Map.copyOf(roles);
        }

        /** The user's role in the project; global admins are admins everywhere; null: none. */
        public Role roleIn(String project) {
            return globalAdmin ? Role.ADMIN : roles.get(project);
        }
    }

    /** A host agent, through its agent token: it may speak the agent protocol for its own id only. */
    record Agent(String agentId, UUID tokenId) implements Caller {

        @Override
        public String name() {
            return "agent:" + agentId;
        }
    }
}
