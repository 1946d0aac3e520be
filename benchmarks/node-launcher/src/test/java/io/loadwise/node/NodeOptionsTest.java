package io.loadwise.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeOptionsTest {

    private static final String DB = "jdbc:h2:tcp://127.0.0.1:9092/trade";

    @Test
    void defaultsAreTable9Baseline() {
        NodeOptions options = NodeOptions.parse("--db-url", DB);
        assertEquals("node", options.name());
        assertEquals("127.0.0.1", options.bindAddress());
        assertEquals(8080, options.port());
        assertEquals(12, options.httpThreads());
        assertEquals(12, options.acceptQueue());
        assertEquals(10, options.jdbcPool());
        assertEquals(10_000, options.jdbcMaxWaitMs(), "the pool's wait before this option");
        assertEquals(0, options.jdbcHoldMs(), "no hold");
        assertEquals(List.of(), options.agentJars());
        assertFalse(options.exitWithParent());
    }

    @Test
    void argumentsRoundTrip() {
        NodeOptions options = NodeOptions.parse("--jvm-route", "VCN3", "--port", "0", "--threads", "6",
                "--accept-queue", "12", "--jdbc-pool", "5", "--db-url", DB, "--war", "app.war",
                "--agent-jar", "a.jar", "--agent-jar", "b.jar", "--work-dir", "w", "--exit-with-parent");
        assertEquals("VCN3", options.name());
        assertEquals(List.of(Path.of("a.jar"), Path.of("b.jar")), options.agentJars());
        assertTrue(options.exitWithParent());
        assertEquals(options, NodeOptions.parse(options.toArguments().toArray(String[]::new)));
        NodeOptions held = NodeOptions.parse("--jdbc-hold-ms", "250", "--jdbc-max-wait-ms", "400", "--db-url", DB);
        assertEquals(250, held.jdbcHoldMs());
        assertEquals(400, held.jdbcMaxWaitMs());
        assertEquals(held, NodeOptions.parse(held.toArguments().toArray(String[]::new)));
    }

    @Test
    void mistakesNameTheOption() {
        assertEquals("--db-url is required", message());
        assertEquals("unknown option '--heap'", message("--heap", "512m", "--db-url", DB));
        assertEquals("--threads needs a value", message("--db-url", DB, "--threads"));
        assertEquals("--threads needs an integer, got 'many'", message("--threads", "many", "--db-url", DB));
        assertEquals("--jdbc-pool must be at least 1, got 0", message("--jdbc-pool", "0", "--db-url", DB));
        assertEquals("--jdbc-max-wait-ms must be at least 1, got 0", message("--jdbc-max-wait-ms", "0", "--db-url", DB));
        assertEquals("--jdbc-hold-ms must not be negative, got -1", message("--jdbc-hold-ms", "-1", "--db-url", DB));
        assertEquals("--port must be between 0 and 65535, got 70000", message("--port", "70000", "--db-url", DB));
        assertTrue(message("--name", "a.b", "--db-url", DB).startsWith("--name must be letters"));
        assertTrue(message("--db-url", "jdbc:derby://x/y").startsWith("--db-url must be an H2 JDBC URL"));
    }

    @Test
    void helpListsEveryOptionWithItsDefault() {
        String help = new NodeArguments().commandLine().getUsageMessage();
        assertTrue(help.startsWith("Usage: NodeMain --db-url JDBC_URL [options]\n"), help);
        for (String option : List.of("--name, --jvm-route=NAME", "--bind=HOST", "--port=N", "(default 8080)", "--threads=N",
                "--accept-queue=N", "--jdbc-pool=N", "--jdbc-max-wait-ms=MS", "--jdbc-hold-ms=MS", "--db-url=URL", "--war=PATH", "--agent-jar=PATH", "--work-dir=PATH",
                "--exit-with-parent", "-h, --help", "java -Xmx512m -jar loadwise-node-launcher.jar")) {
            assertTrue(help.contains(option), option + " in " + help);
        }
    }

    private static String message(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> NodeOptions.parse(args)).getMessage();
    }
}
