package io.loadwise.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The configurations {@code benchmarks/scale/scale_config.py} generates for bench scale and run-overhead.sh's
 * loadwise-routes<N> rows pass the dispatcher's own validation at 1,000 nodes and 1,000 routes, with the shapes
 * the benchmark claims (unique node addresses, the catch-all route last).
 */
class ScaleConfigTest {

    private static final Path SCRIPT = repositoryRoot().resolve("benchmarks/scale/scale_config.py");

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("benchmarks/scale"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no benchmarks/scale above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    /** What {@code loadwise validate} and {@code run} check: parsing, then the validator's every rule. */
    private static LoadwiseConfig valid(String json) throws Exception {
        LoadwiseConfig config = ConfigLoader.parse(json);
        assertEquals(List.of(), new ConfigValidator(PolicyRegistry.load()).validate(config));
        return config;
    }

    private static String generate(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("python3", SCRIPT.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String json = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "scale_config.py finished");
        assertEquals(0, process.exitValue(), "scale_config.py " + command);
        return json;
    }

    @Test
    void aThousandNodeClusterIsValidWithUniqueAddressesAndTenSecondChecks() throws Exception {
        LoadwiseConfig config = valid(generate("nodes", "1000", "--admin", "18111", "--listen", "18080",
                "--node-ports", "19001,19002,19003,19004", "--max-clients", "20000", "--idle-timeout-ms", "3600000"));
        ClusterConfig cluster = config.clusters().get(0);
        assertEquals(1000, cluster.nodes().size());
        assertEquals(1000, new HashSet<>(cluster.nodes().stream().map(NodeConfig::address).toList()).size());
        assertEquals("127.0.0.250:19004", cluster.nodes().get(999).address());
        assertEquals(10_000, cluster.healthCheck().intervalMsOrDefault());
        assertEquals(3_600_000, cluster.idleTimeoutMsOrDefault());
    }

    @Test
    void aThousandRouteListenerIsValidAndEveryBenchmarkRequestTakesTheLastRoute() throws Exception {
        LoadwiseConfig config = valid(generate("routes", "1000", "--admin", "18111", "--listen", "18080",
                "--node", "127.0.0.1:19001"));
        var routes = config.listeners().get(0).routes();
        assertEquals(1000, routes.size());
        assertEquals("/", routes.get(999).match().pathPrefix());
        assertEquals("app999.example", routes.get(998).match().host());
        valid(generate("routes", "10", "--admin", "18111", "--listen", "18080", "--node", "127.0.0.1:19001"));
    }

    @Test
    void moreNodesThanAddressesIsRefusedRatherThanDuplicated() throws Exception {
        Process process = new ProcessBuilder("python3", SCRIPT.toString(), "nodes", "9", "--admin", "1", "--listen", "2",
                "--node-ports", "3", "--hosts", "4").redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(1, process.exitValue(), out);
        assertTrue(out.contains("9 nodes need more than 4 hosts x 1 ports"), out);
    }

    @Test
    void theValidatorWouldCatchABrokenGenerator() throws Exception {
        // the check above is not vacuous: the same validator refuses a cluster whose nodes share a name
        String json = "{\"clusters\":[{\"name\":\"bench\",\"mode\":\"http\",\"listen\":\"127.0.0.1:18080\","
                + "\"nodes\":[{\"name\":\"n1\",\"address\":\"127.0.0.1:1\"},{\"name\":\"n1\",\"address\":\"127.0.0.1:2\"}]}]}";
        List<String> errors = new ConfigValidator(PolicyRegistry.load()).validate(ConfigLoader.parse(json));
        assertTrue(errors.stream().anyMatch(e -> e.contains("n1")), errors.toString());
    }
}
