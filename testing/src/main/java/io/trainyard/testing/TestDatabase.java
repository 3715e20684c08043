package io.trainyard.testing;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.postgresql.ds.PGSimpleDataSource;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * One real PostgreSQL for the whole test run: a Testcontainers container where a Docker engine exists,
 * else zonky's embedded server. Each test class gets a fresh database in it.
 */
public final class TestDatabase {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static DataSource admin;
    private static String urlPrefix;
    private static String user;
    private static String password;

    private TestDatabase() {
    }

    /** A JDBC URL of a new, empty database. */
    public static synchronized String newDatabaseUrl() {
        start();
        String name = "trainyard_test_" + DATABASES.incrementAndGet();
        try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("create database " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name, e);
        }
        return urlPrefix + name + "?user=" + user + "&password=" + password;
    }

    private static void start() {
        if (admin != null) {
            return;
        }
        if (DockerClientFactory.instance().isDockerAvailable()) {
            PostgreSQLContainer container = new PostgreSQLContainer("postgres:18");
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
            PGSimpleDataSource dataSource = new PGSimpleDataSource();
            dataSource.setUrl(container.getJdbcUrl());
            dataSource.setUser(container.getUsername());
            dataSource.setPassword(container.getPassword());
            admin = dataSource;
            urlPrefix = "jdbc:postgresql://" + container.getHost() + ":" + container.getFirstMappedPort() + "/";
            user = container.getUsername();
            password = container.getPassword();
            return;
        }
        try {
            EmbeddedPostgres postgres = EmbeddedPostgres.builder().setServerConfig("max_connections", "300").start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException e) {
                    // the JVM is exiting anyway
                }
            }));
            admin = postgres.getPostgresDatabase();
            urlPrefix = "jdbc:postgresql://localhost:" + postgres.getPort() + "/";
            user = "postgres";
            password = "postgres";
        } catch (IOException e) {
            throw new IllegalStateException("cannot start embedded PostgreSQL", e);
        }
    }
}
