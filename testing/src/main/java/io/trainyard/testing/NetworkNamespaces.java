package io.trainyard.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Separate hosts on one machine: Linux network namespaces (iproute2's {@code ip netns}), each joined by a veth
 * pair to a bridge in the test's own namespace, where the server listens on {@link #SERVER_ADDRESS}. A host
 * is cut off by taking its end of the pair down, and healed by bringing it up. Needs root (CAP_NET_ADMIN);
 * {@link #unavailableBecause()} says why not otherwise.
 */
public final class NetworkNamespaces implements AutoCloseable {

    /** The bridge's address in the test's namespace: where hosts reach the server. */
    public static final String SERVER_ADDRESS = "10.77.0.1";
    private static final String BRIDGE = "ty-br0";

    private final List<String> hosts = new ArrayList<>();

    private NetworkNamespaces() {
    }

    /** Null when namespaces can be made here, else the reason they cannot. */
    public static String unavailableBecause() {
        try {
            String probe = "ty-probe-" + ProcessHandle.current().pid();
            ip("netns", "add", probe);
            ip("netns", "delete", probe);
            return null;
        } catch (IOException | InterruptedException e) {
            return "network namespaces need root and iproute2 (ip netns add failed: " + e.getMessage().strip() + ")";
        }
    }

    /** The bridge, with no hosts yet; leftovers of an earlier run that died are removed first. */
    public static NetworkNamespaces create() throws IOException, InterruptedException {
        NetworkNamespaces lab = new NetworkNamespaces();
        lab.removeLeftovers();
        ip("link", "add", BRIDGE, "type", "bridge");
        ip("addr", "add", SERVER_ADDRESS + "/24", "dev", BRIDGE);
        ip("link", "set", BRIDGE, "up");
        return lab;
    }

    /** A host named {@code ty-<name>} with the address 10.77.0.{@code number} (2-254). */
    public String addHost(String name, int number) throws IOException, InterruptedException {
        String host = "ty-" + name;
        ip("netns", "add", host);
        hosts.add(host);
        ip("link", "add", outside(host), "type", "veth", "peer", "name", inside(host));
        ip("link", "set", inside(host), "netns", host);
        ip("link", "set", outside(host), "master", BRIDGE);
        ip("link", "set", outside(host), "up");
        ip("netns", "exec", host, "ip", "link", "set", "lo", "up");
        ip("netns", "exec", host, "ip", "addr", "add", "10.77.0." + number + "/24", "dev", inside(host));
        ip("netns", "exec", host, "ip", "link", "set", inside(host), "up");
        return host;
    }

    /** The words that run a command on {@code host}. */
    public static List<String> on(String host) {
        return List.of("ip", "netns", "exec", host);
    }

    /** Cuts the host off the network: nothing goes in or out until {@link #heal}. */
    public void cut(String host) throws IOException, InterruptedException {
        ip("link", "set", outside(host), "down");
    }

    public void heal(String host) throws IOException, InterruptedException {
        ip("link", "set", outside(host), "up");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        for (String host : hosts) {
            quietly("link", "delete", outside(host));
            quietly("netns", "delete", host);
        }
        quietly("link", "delete", BRIDGE);
    }

    private void removeLeftovers() throws IOException, InterruptedException {
        Process list = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String names = new String(list.getInputStream().readAllBytes());
        list.waitFor();
        for (String line : names.split("\n")) {
            String name = line.split(" ")[0];
            if (name.startsWith("ty-")) {
                quietly("link", "delete", outside(name));
                quietly("netns", "delete", name);
            }
        }
        quietly("link", "delete", BRIDGE);
    }

    // Interface names are at most 15 characters.
    private static String outside(String host) {
        return (host + "-o").substring(Math.max(0, host.length() + 2 - 15));
    }

    private static String inside(String host) {
        return (host + "-i").substring(Math.max(0, host.length() + 2 - 15));
    }

    private static void quietly(String... arguments) throws InterruptedException {
        try {
            ip(arguments);
        } catch (IOException gone) {
            // already gone
        }
    }

    private static void ip(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(arguments));
        Path output = Files.createTempFile("ip", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (process.waitFor() != 0) {
                throw new IOException(String.join(" ", command) + ": " + Files.readString(output));
            }
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
