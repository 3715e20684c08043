package io.trainyard.security.projects;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import io.trainyard.security.AccessCache;
import io.trainyard.security.Role;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Projects, and who belongs to each with which role. A project looked up by name is remembered as a token is
 * ({@link AccessCache}): every submission asks for its project, and a busy client then costs no round trip for it,
 * while a change made on another replica shows within {@value AccessCache#LIFETIME_MILLIS} ms (at once on this one).
 */
@Repository
public class Projects {

    private final JdbcClient jdbc;
    private final Clock clock;
    private final Cache<String, Optional<Project>> byName = AccessCache.holding(10_000);

    public Projects(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** @param allowGcsConfigs submissions may name {@code gs://} configs, read with the server's credentials */
    public record Project(String name, String description, boolean allowGcsConfigs, Instant createdAt) {
    }

    public record Member(String user, Role role) {
    }

    /** Creates the project; false if one of that name exists already. */
    public boolean create(String name, String description, boolean allowGcsConfigs) {
        boolean created = jdbc.sql("""
                insert into projects (name, description, allow_gcs_configs, created_at) values (?, ?, ?, ?)
                on conflict (name) do nothing""")
                .params(name, description, allowGcsConfigs, Timestamp.from(clock.instant())).update() == 1;
        byName.invalidate(name);
        return created;
    }

    public void update(String name, String description, boolean allowGcsConfigs) {
        jdbc.sql("update projects set description = ?, allow_gcs_configs = ? where name = ?")
                .params(description, allowGcsConfigs, name).update();
        byName.invalidate(name);
    }

    public Optional<Project> find(String name) {
        return byName.get(name, unknown -> jdbc.sql(SELECT + " where name = ?").param(unknown).query(Projects::project).optional());
    }

    /** These projects, or all of them when {@code names} is null; by name. */
    public List<Project> all(Collection<String> names) {
        if (names == null) {
            return jdbc.sql(SELECT + " order by name").query(Projects::project).list();
        }
        if (names.isEmpty()) {
            return List.of();
        }
        return jdbc.sql(SELECT + " where name in (:names) order by name").param("names", names).query(Projects::project).list();
    }

    public List<Member> members(String project) {
        return jdbc.sql("select user_name, role from project_members where project = ? order by user_name").param(project)
                .query((rs, row) -> new Member(rs.getString(1), Role.valueOf(rs.getString(2))))
                .list();
    }

    public void setMember(String project, String user, Role role) {
        jdbc.sql("""
                insert into project_members (project, user_name, role) values (?, ?, ?)
                on conflict (project, user_name) do update set role = excluded.role""")
                .params(project, user, role.name()).update();
    }

    /** Removes the member; false if the user was not one. */
    public boolean removeMember(String project, String user) {
        return jdbc.sql("delete from project_members where project = ? and user_name = ?").params(project, user).update() == 1;
    }

    private static final String SELECT = "select name, description, allow_gcs_configs, created_at from projects";

    private static Project project(ResultSet rs, int row) throws SQLException {
        return new Project(rs.getString(1), rs.getString(2), rs.getBoolean(3), rs.getTimestamp(4).toInstant());
    }
}
