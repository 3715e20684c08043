package io.trainyard.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A pool of separate hosts: a server listening on the namespaces' bridge (its own agent off) and one agent in each
 * of {@code count} network namespaces, {@code ty-<prefix>1 …} at 10.77.0.{@code firstAddress + 1} …, all registered.
 * Closing it kills the agents, stops the server and removes the namespaces.
 */
public final class NamespacedPool implements AutoCloseable {

    private final NetworkNamespaces network;
    private final List<String> hosts = new ArrayList<>();
    private final List<AgentProcess> agents = new ArrayList<>();
    private RunningServer server;

    private NamespacedPool(NetworkNamespaces network) {
        this.network = network;
    }

    /**
     * @param serverArguments the server's options besides its address and its agent
     * @param agentArguments the options of the agent of host {@code n} (1, 2, …) besides its server, token and data folder
     */
    public static NamespacedPool start(Path dataDir, String serverNode, List<String> serverArguments, String prefix, int firstAddress,
            int count, IntFunction<List<String>> agentArguments) throws Exception {
        NamespacedPool pool = new NamespacedPool(NetworkNamespaces.create());
        try {
            List<String> arguments = new ArrayList<>(List.of("--server.address=" + NetworkNamespaces.SERVER_ADDRESS,
                    "--trainyard.local.embedded-agent=false"));
            arguments.addAll(serverArguments);
            pool.server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir.resolve("server"), serverNode,
                    arguments.toArray(String[]::new));
            for (int n = 1; n <= count; n++) {
                String host = pool.network.addHost(prefix + n, firstAddress + n);
                pool.hosts.add(host);
                pool.agents.add(AgentProcess.startOn(NetworkNamespaces.on(host), pool.server.api(), host, dataDir.resolve(host),
                        agentArguments.apply(n).toArray(String[]::new)));
            }
            Eventually.await(count + " agents registered", () -> pool.server.api().agents().listAgents().size() == count,
                    Duration.ofSeconds(60));
            return pool;
        } catch (Exception | AssertionError e) {
            pool.close();
            throw e;
        }
    }

    /** The address of host {@code n} (1, 2, …) of a pool started at {@code firstAddress}. */
    public static String address(int firstAddress, int n) {
        return "10.77.0." + (firstAddress + n);
    }

    public TrainyardClient api() {
        return server.api();
    }

    public NetworkNamespaces network() {
        return network;
    }

    /** The hosts' namespace names, which are also their agents' ids. */
    public List<String> hosts() {
        return List.copyOf(hosts);
    }

    /** The agent of the host (a name {@link #hosts()} lists). */
    public AgentProcess agent(String host) {
        return agents.get(hosts.indexOf(host));
    }

    @Override
    public void close() throws Exception {
        for (AgentProcess agent : agents) {
            agent.kill();
        }
        if (server != null) {
            server.close();
        }
        network.close();
    }
}
