package io.trainyard.logs;

/** Which output of a trainer process a line came from. */
public enum LogStream {
    STDOUT("stdout"), STDERR("stderr");

    private final String wireName;

    LogStream(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    static LogStream fromWireName(String name) {
        return name.equals("stderr") ? STDERR : STDOUT;
    }
}
