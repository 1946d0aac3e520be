package io.loadwise.node.demo;

import io.loadwise.cli.HelpOption;
import io.loadwise.cli.UsageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Options of {@code loadwise demo}, which picocli fills in; {@link #check} validates what it cannot. The
 * defaults are the ports the README promises; tests and operators whose ports are taken can move them.
 */
@Command(name = "loadwise demo", customSynopsis = "loadwise demo [options]",
        description = {"Starts a whole demo cluster on this machine and keeps it running until Ctrl-C:",
            "  an H2 database, three trade-app nodes (embedded Tomcat, the Loadwise agent in WEB-INF/lib),",
            "  the dispatcher with the jvm-aware policy, its REST API, and a light background load."},
        footer = {"The admin token is $LOADWISE_ADMIN_TOKEN when set, otherwise a fresh random one, printed",
            "once. The console password is $LOADWISE_ADMIN_PASSWORD when set, otherwise a fresh one."})
final class DemoOptions {

    @Option(names = "--policy", paramLabel = "ID", description = "policy of the demo cluster (default jvm-aware)")
    private String policy = "jvm-aware";

    @Option(names = "--dispatcher-port", paramLabel = "N", description = "where clients connect (default 9090)")
    private int dispatcherPort = 9090;

    @Option(names = "--admin-port", paramLabel = "N", description = "admin API and console (default 8111)")
    private int adminPort = 8111;

    @Option(names = "--node-ports", paramLabel = "A,B,C", description = "the three nodes (default 18080,28080,38080)")
    private String nodePortList = "18080,28080,38080";

    @Option(names = "--load-users", paramLabel = "N", description = "background virtual users, 0 for none (default 4)")
    private int loadUsers = 4;

    @Option(names = "--users", paramLabel = "N", description = "trade accounts created in the database (default 200)")
    private int users = 200;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "logs, configuration and database (default data/demo)")
    private Path workDir = Path.of("data", "demo");

    @Option(names = "--dispatcher-jar", paramLabel = "JAR", required = true,
            description = "the runnable loadwise.jar (the launcher script passes it)")
    private Path dispatcherJar;

    @Option(names = "--agent-jar", paramLabel = "JAR", description = "the jakarta agent jar (the launcher script passes it)")
    private Path agentJar;

    @Option(names = "--exit-when-ready", description = "start, check, print the URLs and stop again (for scripts and CI)")
    private boolean exitWhenReady;

    @Mixin
    private HelpOption help;

    private List<Integer> nodePorts;

    /** Checks the ranges and the port list; call once picocli has set the options. */
    DemoOptions check() {
        port(dispatcherPort, "--dispatcher-port");
        port(adminPort, "--admin-port");
        range(loadUsers, "--load-users", 0, 200);
        range(users, "--users", 1, 100_000);
        nodePorts = ports(nodePortList);
        return this;
    }

    Path dispatcherJar() {
        return dispatcherJar;
    }

    Path agentJar() {
        return agentJar;
    }

    Path workDir() {
        return workDir;
    }

    String policy() {
        return policy;
    }

    int dispatcherPort() {
        return dispatcherPort;
    }

    int adminPort() {
        return adminPort;
    }

    /** The three node ports, once {@link #check} has run. */
    List<Integer> nodePorts() {
        return nodePorts;
    }

    int loadUsers() {
        return loadUsers;
    }

    int users() {
        return users;
    }

    boolean exitWhenReady() {
        return exitWhenReady;
    }

    private static int port(int value, String option) {
        return range(value, option, 1, 65_535);
    }

    private static int range(int value, String option, int min, int max) {
        if (value < min || value > max) {
            throw new UsageException(option + ": " + value + " out of range " + min + ".." + max);
        }
        return value;
    }

    private static List<Integer> ports(String text) {
        String[] parts = text.split(",");
        if (parts.length != 3) {
            throw new UsageException("--node-ports needs three ports, e.g. 18080,28080,38080");
        }
        List<Integer> ports = new ArrayList<>();
        for (String part : parts) {
            int port;
            try {
                port = Integer.parseInt(part.trim());
            } catch (NumberFormatException e) {
                throw new UsageException("--node-ports: '" + part + "' is not a number");
            }
            ports.add(port(port, "--node-ports"));
        }
        return List.copyOf(ports);
    }
}
