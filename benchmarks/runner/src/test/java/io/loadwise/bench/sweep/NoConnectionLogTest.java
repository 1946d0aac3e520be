package io.loadwise.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.bench.provision.BackendNode;
import io.loadwise.bench.provision.ClusterProvisioner.ProvisionedCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NoConnectionLogTest {

    @TempDir
    Path dir;

    @Test
    void countsTheTradeAppsNoConnectionLinesPerNode() throws IOException {
        // the trade app's line, as the node's log has it (benchmarks/node-launcher HeldJdbcConnectionTest)
        Files.writeString(dir.resolve("VCN3.log"), """
                01:47:06.245 INFO  [main] i.l.t.w.TradeAppListener - trade app ready: ..., JDBC hold 400 ms per scenario request
                02:11:50.101 WARN  [http-nio-1] i.l.t.w.ScenarioServlet - 503 no JDBC connection for action quote: Cannot get \
                a connection, pool error Timeout waiting for idle object
                02:11:50.300 WARN  [http-nio-2] i.l.t.w.ScenarioServlet - 503 no JDBC connection for action login: Cannot get \
                a connection, pool error Timeout waiting for idle object
                """, StandardCharsets.UTF_8);
        Files.write(dir.resolve("VCN1.log"), new byte[] {'o', 'k', (byte) 0xff, '\n'}); // not UTF-8: still read
        List<BackendNode> nodes = List.of(new BackendNode("VCN1", "127.0.0.1", 1, "VCN1"),
                new BackendNode("VCN2", "127.0.0.1", 2, "VCN2"), new BackendNode("VCN3", "127.0.0.1", 3, "VCN3"));
        ProvisionedCluster cluster = new ProvisionedCluster() {
            @Override
            public List<BackendNode> nodes() {
                return nodes;
            }

            @Override
            public String applicationUrl(BackendNode node) {
                return "http://" + node.address() + "/trade";
            }

            @Override
            public Path logFile(BackendNode node) {
                return dir.resolve(node.name() + ".log"); // VCN2's does not exist
            }

            @Override
            public String diagnostics() {
                return "";
            }

            @Override
            public void close() {
            }
        };
        assertEquals(Map.of("VCN1", 0L, "VCN2", 0L, "VCN3", 2L), NoConnectionLog.countPerNode(cluster, nodes));
    }
}
