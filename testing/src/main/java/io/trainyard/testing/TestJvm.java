package io.trainyard.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A main class of the build (on the test classpath) or a runnable jar in a JVM of its own, so that a test can
 * kill it with SIGKILL like a crashed host; its output goes to {@code logFile}.
 */
public final class TestJvm {

    private TestJvm() {
    }

    public static Process start(Path logFile, String mainClass, List<String> arguments) throws IOException {
        return run(logFile, List.of("-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                mainClass), arguments);
    }

    /** A runnable jar in a JVM of its own. */
    public static Process startJar(Path logFile, Path jar, List<String> arguments) throws IOException {
        return startJarOn(List.of(), logFile, jar, arguments);
    }

    /** A runnable jar in a JVM of its own, started by the words {@code host} (e.g. {@code ip netns exec h}). */
    public static Process startJarOn(List<String> host, Path logFile, Path jar, List<String> arguments) throws IOException {
        return run(host, logFile, List.of("-jar", jar.toString()), arguments);
    }

    private static Process run(Path logFile, List<String> what, List<String> arguments) throws IOException {
        return run(List.of(), logFile, what, arguments);
    }

    private static Process run(List<String> host, Path logFile, List<String> what, List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>(host);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m"));
        command.addAll(what);
        command.addAll(arguments);
        Files.createDirectories(logFile.getParent());
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
    }

    /** Kills like a crash: SIGKILL, no shutdown hooks. */
    public static void kill(Process process) throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
