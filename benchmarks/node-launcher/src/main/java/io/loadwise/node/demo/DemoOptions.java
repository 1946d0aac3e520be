package io.loadwise.node.demo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Options of {@code loadwise demo}. The defaults are the ports the README promises; tests and operators
 * whose ports are taken can move them.
 */
record DemoOptions(
        Path dispatcherJar,
        Path agentJar,
        Path workDir,
        String policy,
        int dispatcherPort,
        int adminPort,
        List<Integer> nodePorts,
        int loadUsers,
        int users,
        boolean exitWhenReady) {

    static final String USAGE = """
            Usage: loadwise demo [options]

            Starts a whole demo cluster on this machine and keeps it running until Ctrl-C:
              an H2 database, three trade-app nodes (embedded Tomcat, the Loadwise agent in WEB-INF/lib),
              the dispatcher with the jvm-aware policy, its REST API, and a light background load.

            Options:
              --policy ID            policy of the demo cluster (default jvm-aware)
              --dispatcher-port N    where clients connect (default 9090)
              --admin-port N         admin API and console (default 8111)
              --node-ports A,B,C     the three nodes (default 18080,28080,38080)
              --load-users N         background virtual users, 0 for none (default 4)
              --users N              trade accounts created in the database (default 200)
              --work-dir DIR         logs, configuration and database (default data/demo)
              --dispatcher-jar JAR   the runnable loadwise.jar (the launcher script passes it)
              --agent-jar JAR        the jakarta agent jar (the launcher script passes it)
              --exit-when-ready      start, check, print the URLs and stop again (for scripts and CI)
              --help                 this text

            The admin token is $LOADWISE_ADMIN_TOKEN when set, otherwise a fresh random one, printed
            once. The console password is $LOADWISE_ADMIN_PASSWORD when set, otherwise a fresh one.
            """;

    static DemoOptions parse(String[] args) {
        Path dispatcherJar = null;
        Path agentJar = null;
        Path workDir = Path.of("data", "demo");
        String policy = "jvm-aware";
        int dispatcherPort = 9090;
        int adminPort = 8111;
        List<Integer> nodePorts = List.of(18080, 28080, 38080);
        int loadUsers = 4;
        int users = 200;
        boolean exitWhenReady = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--dispatcher-jar" -> dispatcherJar = Path.of(value(args, ++i, arg));
                case "--agent-jar" -> agentJar = Path.of(value(args, ++i, arg));
                case "--work-dir" -> workDir = Path.of(value(args, ++i, arg));
                case "--policy" -> policy = value(args, ++i, arg);
                case "--dispatcher-port" -> dispatcherPort = port(value(args, ++i, arg), arg);
                case "--admin-port" -> adminPort = port(value(args, ++i, arg), arg);
                case "--node-ports" -> nodePorts = ports(value(args, ++i, arg));
                case "--load-users" -> loadUsers = count(value(args, ++i, arg), arg, 0, 200);
                case "--users" -> users = count(value(args, ++i, arg), arg, 1, 100_000);
                case "--exit-when-ready" -> exitWhenReady = true;
                default -> throw new IllegalArgumentException("unknown option '" + arg + "' (see --help)");
            }
        }
        if (dispatcherJar == null) {
            throw new IllegalArgumentException("--dispatcher-jar is required (./loadwise demo passes it)");
        }
        return new DemoOptions(dispatcherJar, agentJar, workDir, policy, dispatcherPort, adminPort, nodePorts,
                loadUsers, users, exitWhenReady);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int port(String text, String option) {
        return count(text, option, 1, 65_535);
    }

    private static int count(String text, String option, int min, int max) {
        int value;
        try {
            value = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": '" + text + "' is not a number");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + ": " + value + " out of range " + min + ".." + max);
        }
        return value;
    }

    private static List<Integer> ports(String text) {
        String[] parts = text.split(",");
        if (parts.length != 3) {
            throw new IllegalArgumentException("--node-ports needs three ports, e.g. 18080,28080,38080");
        }
        List<Integer> ports = new ArrayList<>();
        for (String part : parts) {
            ports.add(port(part, "--node-ports"));
        }
        return List.copyOf(ports);
    }
}
