package io.loadwise.servers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * WildFly 39 from Maven Central ({@code org.wildfly:wildfly-dist}), standalone with its default
 * configuration copied per run, statistics enabled and {@code jboss.node.name} as the route
 * (Undertow's {@code instance-id} defaults to it, and session ids end in {@code .<instance-id>}).
 */
@EnabledIfSystemProperty(named = "loadwise.wildfly.home", matches = ".+")
class WildFlyNodeIT extends AppServerNodeContract {

    private static final String ROUTE = "wf1";

    @Override
    ServerProcess start(Path war, Path work, int port) throws Exception {
        Path home = Path.of(System.getProperty("loadwise.wildfly.home"));
        Path base = work.resolve("standalone");
        deleteTree(base);
        copyTree(home.resolve("standalone"), base);
        Files.copy(war, base.resolve("deployments").resolve("probe.war"));
        return restart(work, port);
    }

    @Override
    ServerProcess restart(Path work, int port) throws Exception {
        Path home = Path.of(System.getProperty("loadwise.wildfly.home"));
        Path base = work.resolve("standalone");
        // HTTP, HTTPS and management on free ports; the transaction ports keep their defaults (4712/4713)
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/standalone.sh").toString(),
                "-Djboss.server.base.dir=" + base,
                "-Djboss.http.port=" + port, "-Djboss.https.port=" + ServerProcess.freePort(),
                "-Djboss.management.http.port=" + ServerProcess.freePort(),
                "-Djboss.management.https.port=" + ServerProcess.freePort(),
                "-Djboss.bind.address=127.0.0.1", "-Djboss.node.name=" + ROUTE,
                "-Dwildfly.statistics-enabled=true"));
        return ServerProcess.start(command, work, Map.of("JAVA_OPTS", "-Xmx256m -Djava.net.preferIPv4Stack=true"),
                work.resolve("wildfly.log"));
    }

    @Override
    String route() {
        return ROUTE;
    }

    @Override
    String routeSuffix(String route) {
        return "." + route;
    }

    @Override
    String adapter() {
        return "wildfly";
    }

    @Override
    List<String> serverMetrics() {
        return List.of("AMX_CONNS_Q_THRDSMAX", "AMX_CONNS_Q_THRBSY%", "AMX_RQST_TOTAL", "AMX_SESSIONS_ACT",
                "AMX_JDBC_ACTC%", "AMX_CONNS_OPEN");
    }

    static void copyTree(Path from, Path to) throws Exception {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    static void deleteTree(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
