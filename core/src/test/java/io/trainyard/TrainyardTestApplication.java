package io.trainyard;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.trainyard.testing.TestDatabase;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Trainyard's services without the web server, on a fresh database of the tests' real PostgreSQL, for focused
 * tests of the domain: the core, and the backend modules on the test's classpath (the core's own
 * tests add a backend of their own; the local backend's tests play its agents through its services). Shared
 * through the core's test jar.
 */
@SpringBootApplication
public class TrainyardTestApplication {

    @Bean
    MeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }

    /** For {@code @DynamicPropertySource}: a new empty database per test class. */
    public static void database(DynamicPropertyRegistry registry) {
        String url = TestDatabase.newDatabaseUrl();
        registry.add("spring.datasource.url", () -> url);
        registry.add("trainyard.data-dir", () -> System.getProperty("java.io.tmpdir") + "/trainyard-domain-test");
    }
}
