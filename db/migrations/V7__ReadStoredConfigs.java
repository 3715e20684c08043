package db.migration;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;

import io.trainyard.gigl.ResourceConfigReader;
import io.trainyard.gigl.TaskConfigReader;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the configs of jobs stored before the typed columns existed (V6), once, with the same readers that
 * checked them at submission, without the rules added since (they passed the rules of their day). A stored
 * config that does not parse stops the migration: that would be a bug to look at, not something to skip.
 */
public class V7__ReadStoredConfigs extends BaseJavaMigration {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        try (PreparedStatement select = connection.prepareStatement(
                     "select id, task_config, resource_config from jobs where task is null");
             PreparedStatement update = connection.prepareStatement(
                     "update jobs set task = ?::jsonb, resource = ?::jsonb where id = ?");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                update.setString(1, JSON.writeValueAsString(TaskConfigReader.readStored(rows.getString(2))));
                update.setString(2, JSON.writeValueAsString(ResourceConfigReader.readStored(rows.getString(3))));
                update.setObject(3, rows.getObject(1, UUID.class));
                update.executeUpdate();
            }
        }
    }
}
