package io.loadwise.node.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** {@code loadwise demo}'s command line, as the launcher script passes it; nothing is started. */
class DemoOptionsTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return DemoMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void helpAnswersAfterTheJarsTheLauncherPassesFirst() {
        // ./loadwise demo --help runs DemoMain --dispatcher-jar J --agent-jar A --help
        assertEquals(0, run("--dispatcher-jar", "loadwise.jar", "--agent-jar", "agent.jar", "--help"));
        String help = out.toString(StandardCharsets.UTF_8);
        assertTrue(help.startsWith("Usage: loadwise demo [options]\n"), help);
        for (String option : List.of("--policy=ID", "(default jvm-aware)", "--dispatcher-port=N", "(default 9090)",
                "--admin-port=N", "--node-ports=A,B,C", "--load-users=N", "--users=N", "--work-dir=DIR", "--exit-when-ready",
                "LOADWISE_ADMIN_TOKEN", "LOADWISE_ADMIN_PASSWORD")) {
            assertTrue(help.contains(option), option + " in " + help);
        }
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void defaultsAreTheReadmesPorts() {
        DemoOptions options = new DemoOptions();
        Cli.parse(Cli.configure(new CommandLine(options)), "--dispatcher-jar", "loadwise.jar");
        options.check();
        assertEquals(Path.of("loadwise.jar"), options.dispatcherJar());
        assertEquals("jvm-aware", options.policy());
        assertEquals(9090, options.dispatcherPort());
        assertEquals(8111, options.adminPort());
        assertEquals(List.of(18080, 28080, 38080), options.nodePorts());
        assertEquals(4, options.loadUsers());
        assertEquals(200, options.users());
        assertEquals(Path.of("data", "demo"), options.workDir());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--node-ports 1,2|loadwise demo: --node-ports needs three ports, e.g. 18080,28080,38080; see loadwise demo --help",
        "--node-ports 1,2,x|loadwise demo: --node-ports: 'x' is not a number; see loadwise demo --help",
        "--admin-port 70000|loadwise demo: --admin-port: 70000 out of range 1..65535; see loadwise demo --help",
        "--users 0|loadwise demo: --users: 0 out of range 1..100000; see loadwise demo --help",
        "--load-users many|loadwise demo: --load-users needs an integer, got 'many'; see loadwise demo --help",
        "--bogus|loadwise demo: unknown option '--bogus'; see loadwise demo --help"})
    void aBadOptionIsOneLineAndExitCode2(String args, String line) {
        String[] given = ("--dispatcher-jar x.jar " + args).split(" ");
        assertEquals(2, run(given));
        assertEquals(line + "\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theDispatcherJarIsRequired() {
        assertEquals(2, run("--policy", "round-robin"));
        assertEquals("loadwise demo: --dispatcher-jar JAR is required; see loadwise demo --help\n",
                err.toString(StandardCharsets.UTF_8));
    }
}
