package io.trainyard.security.sso;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.oauth2.client.web.AuthorizationRequestRepository;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;

/**
 * The sign-ins under way, kept in the database by their {@code state} (random, unguessable, and sent back by the
 * provider), not in the HTTP session: the dashboard's session cookie is SameSite=Strict, so the browser leaves it
 * out of the provider's redirect back to this server, and no session need exist before sign-in. In the database, not
 * in this replica's memory, so that the redirect back may reach any replica behind the load balancer. A sign-in not
 * completed in 10 minutes is forgotten; at most {@value #MOST_UNDER_WAY} may be under way at once (starting one needs
 * no token). The PKCE verifier stays here too; only its challenge went to the browser.
 */
final class StateKeyedRequests implements AuthorizationRequestRepository<OAuth2AuthorizationRequest> {

    private static final Logger log = LoggerFactory.getLogger(StateKeyedRequests.class);
    private static final int MOST_UNDER_WAY = 100_000;
    private static final String UNEXPIRED = "started_at > now() - interval '10 minutes'";
    /** The request's classes and what they hold (strings, collections), nothing else: read back only what was written. */
    private static final ObjectInputFilter ONLY_REQUESTS = ObjectInputFilter.Config.createFilter(
            "org.springframework.security.oauth2.core.endpoint.*;org.springframework.security.oauth2.core.*;"
                    + "java.util.*;java.lang.*;maxdepth=10;maxrefs=1000;maxbytes=65536;!*");

    private final JdbcClient jdbc;

    StateKeyedRequests(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public OAuth2AuthorizationRequest loadAuthorizationRequest(HttpServletRequest request) {
        String state = request.getParameter(OAuth2ParameterNames.STATE);
        return state == null ? null : jdbc.sql("select request from sso_sign_ins where state = ? and " + UNEXPIRED)
                .param(state).query(byte[].class).optional().map(StateKeyedRequests::read).orElse(null);
    }

    @Override
    public void saveAuthorizationRequest(OAuth2AuthorizationRequest authorizationRequest, HttpServletRequest request,
            HttpServletResponse response) {
        if (authorizationRequest == null) {
            return;
        }
        jdbc.sql("delete from sso_sign_ins where not (" + UNEXPIRED + ")").update();
        if (jdbc.sql("select count(*) from (select 1 from sso_sign_ins limit ?) under_way").param(MOST_UNDER_WAY)
                .query(Long.class).single() >= MOST_UNDER_WAY) {
            throw new IllegalStateException(MOST_UNDER_WAY + " sign-ins are under way: try again in a few minutes");
        }
        jdbc.sql("insert into sso_sign_ins (state, request) values (?, ?)")
                .params(authorizationRequest.getState(), write(authorizationRequest)).update();
    }

    @Override
    public OAuth2AuthorizationRequest removeAuthorizationRequest(HttpServletRequest request, HttpServletResponse response) {
        String state = request.getParameter(OAuth2ParameterNames.STATE);
        return state == null ? null : jdbc.sql("delete from sso_sign_ins where state = ? and " + UNEXPIRED + " returning request")
                .param(state).query(byte[].class).optional().map(StateKeyedRequests::read).orElse(null);
    }

    private static byte[] write(OAuth2AuthorizationRequest request) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The stored request; none if a server of another version wrote it in a form this one cannot read. */
    private static OAuth2AuthorizationRequest read(byte[] stored) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(stored))) {
            in.setObjectInputFilter(ONLY_REQUESTS);
            return (OAuth2AuthorizationRequest) in.readObject();
        } catch (InvalidClassException | ClassNotFoundException | ClassCastException e) {
            log.warn("A stored sign-in could not be read ({}): its user must start again", e.toString());
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
