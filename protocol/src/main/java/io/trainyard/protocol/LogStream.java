package io.trainyard.protocol;

import com.fasterxml.jackson.annotation.JsonValue;

/** Which output of a trainer process a line came from. */
public enum LogStream {
    STDOUT("stdout"), STDERR("stderr");

    private final String wireName;

    LogStream(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }
}
