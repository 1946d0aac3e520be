package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.StoreConfig;
import io.loadwise.dispatcher.store.EtcdProcess;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.testsupport.TestRoundRobinPolicy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loadwise config push} and {@code pull} against a real etcd. */
class ConfigCommandTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        out.reset();
        err.reset();
        return new Main(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of()).execute(args);
    }

    @Test
    void pushThenPullRoundTripsTheClusters() throws Exception {
        try (EtcdProcess etcd = new EtcdProcess(dir)) {
            StoreConfig store = new StoreConfig("etcd", List.of(etcd.endpoint()), "/loadwise/cli", null);
            LoadwiseConfig site = Configs.config(Configs.tcp("web", TestRoundRobinPolicy.ID,
                    Configs.nodes("127.0.0.1:18080", "127.0.0.1:28080")));
            site = new LoadwiseConfig(site.admin(), null, null, null, site.clusters(), store);
            Path file = dir.resolve("site.json");
            Files.writeString(file, ConfigLoader.toJson(site));

            assertEquals(0, run("config", "push", "--config", file.toString()), err.toString());
            assertTrue(out.toString().startsWith("pushed 1 clusters, 0 listeners and 0 rate limits to etcd"), out.toString());

            Path replica = dir.resolve("replica.json");
            Files.writeString(replica, ConfigLoader.toJson(site.withClusters(null)));
            Path pulled = dir.resolve("pulled.json");
            assertEquals(0, run("config", "pull", "--config", replica.toString(), "--output", pulled.toString()),
                    err.toString());
            assertEquals(site.clusters(), ConfigLoader.load(pulled).clusters());

            etcd.stop();
            assertEquals(1, run("config", "pull", "--config", replica.toString()));
            assertTrue(err.toString().contains("cannot be reached"), err.toString());
        }
    }

    @Test
    void pushRefusesAnInvalidFileOrOneWithoutEtcd() throws Exception {
        Path file = dir.resolve("plain.json");
        Files.writeString(file, ConfigLoader.toJson(Configs.config(Configs.tcp("web", TestRoundRobinPolicy.ID,
                Configs.nodes("127.0.0.1:18080")))));
        assertEquals(1, run("config", "push", "--config", file.toString()));
        assertTrue(err.toString().contains("config.store: not etcd"), err.toString());

        Files.writeString(file, Files.readString(file).replace("127.0.0.1:18080", "127.0.0.1:99999"));
        assertEquals(1, run("config", "push", "--config", file.toString()));
        assertTrue(err.toString().contains("clusters[0].nodes[0].address"), err.toString());
        assertTrue(err.toString().contains("nothing was pushed"), err.toString());
    }

    @Test
    void helpDescribesPushAndPull() {
        assertEquals(0, run("config", "push", "--help"));
        assertTrue(out.toString().contains("--config"), out.toString());
        assertEquals(0, run("config", "pull", "--help"));
        assertTrue(out.toString().contains("--output"), out.toString());
    }
}
