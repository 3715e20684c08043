package io.trainyard;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The Trainyard server: REST API, dispatcher, log store and the local backend of this host. */
@SpringBootApplication
public class TrainyardServer {

    public static void main(String[] args) {
        SpringApplication.run(TrainyardServer.class, args);
    }
}
