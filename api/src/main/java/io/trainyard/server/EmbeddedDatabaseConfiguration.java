package io.trainyard.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.trainyard.core.EmbeddedDatabaseStart;
import io.trainyard.core.TrainyardProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With no {@code spring.datasource.url}, the server runs a real PostgreSQL of its own (zonky's embedded
 * binaries) under {@code <dataDir>/postgres}, kept across restarts and started again if it dies (see
 * {@link EmbeddedDatabase}), so one command runs everything. Its superuser's password is in
 * {@code <dataDir>/postgres-password}, readable by the server's user only.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("'${spring.datasource.url:}'.isEmpty()")
class EmbeddedDatabaseConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedDatabaseConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedDatabase embeddedDatabase(TrainyardProperties properties, ObjectProvider<EmbeddedDatabaseStart> beforeStart)
            throws IOException {
        Path dataDirectory = properties.dataDir().resolve("postgres");
        Files.createDirectories(dataDirectory.getParent());
        beforeStart.orderedStream().forEach(EmbeddedDatabaseStart::beforeStart);
        stopOrphanedServer(dataDirectory);
        EmbeddedDatabase postgres = EmbeddedDatabase.start(dataDirectory, properties.dataDir().resolve("postgres-password"));
        log.info("Embedded PostgreSQL on port {} with data in {}", postgres.port(), dataDirectory);
        return postgres;
    }

    @Bean
    DataSource dataSource(EmbeddedDatabase postgres) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(postgres.jdbcUrl());
        config.setUsername(postgres.user());
        config.setPassword(postgres.password());
        config.setMaximumPoolSize(20);
        config.setConnectionTimeout(2_000);
        config.setPoolName("embedded-postgres");
        // As application.yaml sets it for a database of the operator's: see there why.
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        return new HikariDataSource(config);
    }

    /**
     * A server killed with SIGKILL leaves its PostgreSQL running; stop it before starting a new one on the
     * same data directory.
     */
    private static void stopOrphanedServer(Path dataDirectory) throws IOException {
        Path pidFile = dataDirectory.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        long pid;
        try {
            pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().strip());
        } catch (RuntimeException e) {
            return;
        }
        Optional<ProcessHandle> orphan = ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(handle -> handle.info().command().map(command -> command.contains("postgres")).orElse(false));
        if (orphan.isEmpty()) {
            return;
        }
        log.warn("Stopping PostgreSQL (pid {}) left running by a previous server on {}", pid, dataDirectory);
        ProcessHandle postgres = orphan.get();
        postgres.destroy();
        try {
            postgres.onExit().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            postgres.destroyForcibly();
        }
    }
}
