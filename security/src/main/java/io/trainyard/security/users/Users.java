package io.trainyard.security.users;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.trainyard.security.Role;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The users Trainyard knows: created by a global admin, or at first sight of an OIDC token. */
@Repository
public class Users {

    private final JdbcClient jdbc;
    private final Clock clock;

    public Users(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    public record User(String name, boolean globalAdmin, Instant createdAt) {
    }

    /** Creates the user; false if one of that name exists already. */
    public boolean create(String name, boolean globalAdmin) {
        return jdbc.sql("insert into users (name, global_admin, created_at) values (?, ?, ?) on conflict (name) do nothing")
                .params(name, globalAdmin, Timestamp.from(clock.instant())).update() == 1;
    }

    public Optional<User> find(String name) {
        return jdbc.sql("select name, global_admin, created_at from users where name = ?").param(name)
                .query((rs, row) -> new User(rs.getString(1), rs.getBoolean(2), rs.getTimestamp(3).toInstant()))
                .optional();
    }

    public List<User> all() {
        return jdbc.sql("select name, global_admin, created_at from users order by name")
                .query((rs, row) -> new User(rs.getString(1), rs.getBoolean(2), rs.getTimestamp(3).toInstant()))
                .list();
    }

    public boolean anyGlobalAdmin() {
        return jdbc.sql("select exists (select 1 from users where global_admin)").query(Boolean.class).single();
    }

    /** The user's role in each project it is a member of. */
    public Map<String, Role> memberships(String name) {
        Map<String, Role> roles = new LinkedHashMap<>();
        jdbc.sql("select project, role from project_members where user_name = ? order by project").param(name)
                .query((rs, row) -> roles.put(rs.getString(1), Role.valueOf(rs.getString(2))))
                .list();
        return roles;
    }
}
