package io.loadwise.servers;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Open Liberty 26 from Maven Central ({@code io.openliberty:openliberty-runtime}), a fresh server per run
 * in its own user directory, with servlet-6.0 and monitor-1.0 and {@code <httpSession cloneId>} as the
 * route (session ids end in {@code :<cloneId>}).
 */
@EnabledIfSystemProperty(named = "loadwise.liberty.home", matches = ".+")
class LibertyNodeIT extends AppServerNodeContract {

    private static final String ROUTE = "ol1";

    @Override
    ServerProcess start(Path war, Path work, int port) throws Exception {
        Path home = Path.of(System.getProperty("loadwise.liberty.home"));
        Path userDir = work.resolve("usr");
        WildFlyNodeIT.deleteTree(userDir);
        Path serverDir = Files.createDirectories(userDir.resolve("servers/probe/dropins"));
        Files.copy(war, serverDir.resolve("probe.war"));
        Files.writeString(serverDir.getParent().resolve("server.xml"), """
                <server>
                  <featureManager>
                    <feature>servlet-6.0</feature>
                    <feature>monitor-1.0</feature>
                  </featureManager>
                  <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1" httpPort="%d" httpsPort="-1"/>
                  <httpSession cloneId="%s"/>
                  <applicationManager autoExpand="true"/>
                </server>
                """.formatted(port, ROUTE), StandardCharsets.UTF_8);
        Files.writeString(serverDir.getParent().resolve("jvm.options"), "-Xmx256m\n", StandardCharsets.UTF_8);
        return restart(work, port);
    }

    @Override
    ServerProcess restart(Path work, int port) throws Exception {
        Path home = Path.of(System.getProperty("loadwise.liberty.home"));
        Path userDir = work.resolve("usr");
        return ServerProcess.start(List.of(home.resolve("bin/server").toString(), "run", "probe"), work,
                Map.of("WLP_USER_DIR", userDir.toString()), work.resolve("liberty.log"));
    }

    @Override
    String route() {
        return ROUTE;
    }

    @Override
    String routeSuffix(String route) {
        return ":" + route;
    }

    @Override
    String adapter() {
        return "liberty";
    }

    @Override
    List<String> serverMetrics() {
        // registered on first use: the session and the requests the test has made
        return List.of("AMX_CONNS_Q_THRBSY", "AMX_RQST_TOTAL", "AMX_RQST_AVETIME", "AMX_SESSIONS_ACT");
    }
}
