package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.Await;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The stores outlive the dispatcher: a restarted one reopens them and carries on. */
class MetricsRestartTest extends ApiTestBase {

    private static final String SERIES = "/api/clusters/web/series/TD_AVE_CONNS_ACT.csv?window=10m";

    /** Timestamps of the CSV rows that have a value. */
    private static List<String> recordedSeconds(ApiClient client) {
        ApiClient.Response csv = client.get(SERIES);
        assertEquals(200, csv.status(), csv.body());
        List<String> out = new ArrayList<>();
        for (String line : csv.body().split("\n")) {
            String[] fields = line.split(",", -1);
            if (!line.startsWith("timestamp") && !fields[1].isEmpty()) {
                out.add(fields[0]);
            }
        }
        return out;
    }

    @Test
    void aRestartedDispatcherReopensTheStoresKeepsTheirHistoryAndAddsNewOnes() throws Exception {
        Await.until(() -> recordedSeconds(api).size() >= 2, "two recorded seconds before the restart");
        List<String> before = recordedSeconds(api);
        control.close();

        PolicyRegistry policies = PolicyRegistry.load();
        control = new Dispatcher(ConfigLoader.load(configFile), new ConfigStore(configFile), policies, transport,
                new ModeListenerFactory());
        control.start(TOKEN, true);
        ApiClient restarted = new ApiClient(control.controlPlane().port(), TOKEN);
        Await.until(() -> recordedSeconds(restarted).size() >= before.size() + 2, "two recorded seconds after it");
        assertTrue(recordedSeconds(restarted).containsAll(before), "history from before the restart is kept");

        assertEquals(201, restarted.post("/api/clusters", """
                {"name": "late", "mode": "tcp", "listen": "127.0.0.1:0", "policy": "round-robin",
                 "nodes": [{"name": "x", "address": "%s"}]}""".formatted(node1.address())).status());
        Path rrd = dataDir().resolve("rrd");
        Await.until(() -> Files.exists(rrd.resolve("late/nodes/x.rrd")), "a store for the new cluster's node");
        assertEquals(List.of("late/cluster.rrd", "late/nodes/x.rrd", "web/cluster.rrd", "web/nodes/n1.rrd",
                "web/nodes/n2.rrd"), files(rrd), "one store each, nothing moved aside");
    }

    private static List<String> files(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isRegularFile).map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(name -> name.endsWith(".rrd") || name.contains(".corrupt-")).sorted().toList();
        }
    }
}
