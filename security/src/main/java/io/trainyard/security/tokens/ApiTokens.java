package io.trainyard.security.tokens;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** API tokens of users and agents, stored as hashes of their secrets. */
@Repository
public class ApiTokens {

    private final JdbcClient jdbc;
    private final Clock clock;

    public ApiTokens(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * A token as stored (never its secret).
     *
     * @param owner the user it acts for, or null for an agent token
     * @param agentId the agent it identifies, or null for a user token
     */
    public record Token(UUID id, String name, String owner, String agentId, String createdBy, Instant createdAt,
            Instant expiresAt, Instant lastUsedAt, Instant revokedAt) {

        public boolean isValidAt(Instant now) {
            return revokedAt == null && (expiresAt == null || expiresAt.isAfter(now));
        }
    }

    /** A token just made: the only time its secret is seen. */
    public record Created(Token token, String secret) {
    }

    public Created createForUser(String owner, String name, Duration lifetime, String createdBy) {
        return create(name, owner, null, lifetime, createdBy, TokenSecret.USER_PREFIX);
    }

    public Created createForAgent(String agentId, String name, Duration lifetime, String createdBy) {
        return create(name, null, agentId, lifetime, createdBy, TokenSecret.AGENT_PREFIX);
    }

    private Created create(String name, String owner, String agentId, Duration lifetime, String createdBy, String prefix) {
        String secret = TokenSecret.generate(prefix);
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        Token token = new Token(UUID.randomUUID(), name, owner, agentId, createdBy, now,
                lifetime == null ? null : now.plus(lifetime), null, null);
        jdbc.sql("""
                insert into api_tokens (id, name, token_hash, owner, agent_id, created_by, created_at, expires_at)
                values (?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(token.id(), name, TokenSecret.hash(secret), owner, agentId, createdBy,
                        Timestamp.from(now), token.expiresAt() == null ? null : Timestamp.from(token.expiresAt()))
                .update();
        return new Created(token, secret);
    }

    /** The token with this secret's hash, valid or not. */
    public Optional<Token> findByHash(String hash) {
        return jdbc.sql(SELECT + " where token_hash = ?").param(hash).query(ApiTokens::token).optional();
    }

    public Optional<Token> find(UUID id) {
        return jdbc.sql(SELECT + " where id = ?").param(id).query(ApiTokens::token).optional();
    }

    /** A user's tokens, or every user token when {@code owner} is null; newest first. */
    public List<Token> ofUsers(String owner) {
        return owner == null
                ? jdbc.sql(SELECT + " where owner is not null order by created_at desc").query(ApiTokens::token).list()
                : jdbc.sql(SELECT + " where owner = ? order by created_at desc").param(owner).query(ApiTokens::token).list();
    }

    /** Every agent token, newest first. */
    public List<Token> ofAgents() {
        return jdbc.sql(SELECT + " where agent_id is not null order by created_at desc").query(ApiTokens::token).list();
    }

    /** Revokes the token; false if it was revoked already. */
    public boolean revoke(UUID id) {
        return jdbc.sql("update api_tokens set revoked_at = ? where id = ? and revoked_at is null")
                .params(Timestamp.from(clock.instant()), id).update() == 1;
    }

    /** Revokes every token of an agent with this name (the server's own agent's, from when it called the server over HTTP). */
    public void revokeAgentTokensNamed(String agentId, String name) {
        jdbc.sql("update api_tokens set revoked_at = ? where agent_id = ? and name = ? and revoked_at is null")
                .params(Timestamp.from(clock.instant()), agentId, name).update();
    }

    public void markUsed(UUID id, Instant at) {
        jdbc.sql("update api_tokens set last_used_at = ? where id = ?").params(Timestamp.from(at), id).update();
    }

    private static final String SELECT = """
            select id, name, owner, agent_id, created_by, created_at, expires_at, last_used_at, revoked_at from api_tokens""";

    private static Token token(ResultSet rs, int row) throws SQLException {
        return new Token(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                instant(rs, 6), instant(rs, 7), instant(rs, 8), instant(rs, 9));
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        Timestamp timestamp = rs.getTimestamp(column);
        return timestamp == null ? null : timestamp.toInstant();
    }
}
