package io.trainyard.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.trainyard.testing.TestDatabase;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * V13 tags the placements stored before placements had a {@code kind}, and V16 gives the pool's an empty
 * {@code moreHosts}: every stored job still reads, with its placement's shape, once the server runs the new code.
 */
class PlacementKindMigrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void untaggedPlacementsStoredBeforeV13AreTaggedAndReadAsTheirKind() throws Exception {
        String url = TestDatabase.newDatabaseUrl();
        Flyway.configure().dataSource(url, null, null).locations("classpath:db/migration").target("12").load().migrate();
        try (Connection connection = DriverManager.getConnection(url); Statement sql = connection.createStatement()) {
            for (String[] job : new String[][] {
                    {"00000000-0000-0000-0000-000000000001", "{\"node\": \"gpu-1\", \"device\": \"gpu\", \"gpus\": [0, 1], \"cpuSlots\": 0}"},
                    {"00000000-0000-0000-0000-000000000002", "{\"project\": \"p\", \"region\": \"us-central1\"}"},
                    {"00000000-0000-0000-0000-000000000003", null}}) {
                sql.execute("insert into jobs (id, job_name, state, backend, task_config, resource_config, slots, timeout_seconds,"
                        + " created_at, queued_at, updated_at, task, resource, placement) values ('" + job[0] + "', 'j', 'RUNNING',"
                        + " 'local', '', '', 1, 60, now(), now(), now(), '{}', '{}', " + (job[1] == null ? "null" : "'" + job[1] + "'") + ")");
            }

            Flyway.configure().dataSource(url, null, null).locations("classpath:db/migration").load().migrate();

            Map<String, Placement> placements = new HashMap<>();
            try (ResultSet rows = sql.executeQuery("select id, placement from jobs")) {
                while (rows.next()) {
                    String stored = rows.getString(2);
                    placements.put(rows.getString(1), stored == null ? null : JSON.readValue(stored, Placement.class));
                }
            }
            assertThat(placements.get("00000000-0000-0000-0000-000000000001"))
                    .isEqualTo(Placement.of("agent", Map.of("node", "gpu-1", "device", "gpu", "gpus", List.of(0, 1), "cpuSlots", 0,
                            "moreHosts", List.of())));
            assertThat(placements.get("00000000-0000-0000-0000-000000000002"))
                    .isEqualTo(Placement.of("vertexAi", Map.of("project", "p", "region", "us-central1")));
            assertThat(placements.get("00000000-0000-0000-0000-000000000003")).isNull();
        }
    }
}
