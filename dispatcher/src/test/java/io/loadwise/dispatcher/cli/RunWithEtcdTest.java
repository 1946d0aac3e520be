package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.cli.Cli;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.StoreConfig;
import io.loadwise.dispatcher.store.EtcdClient;
import io.loadwise.dispatcher.store.EtcdConfigSource;
import io.loadwise.dispatcher.store.EtcdProcess;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.testsupport.TestRoundRobinPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code run} with {@code config.store etcd}: the clusters come from etcd, the replica registers itself. */
class RunWithEtcdTest {

    @TempDir
    Path dir;

    @Test
    void runLoadsTheClustersFromEtcdAndRegistersTheReplica() throws Exception {
        try (EtcdProcess etcd = new EtcdProcess(dir)) {
            StoreConfig store = new StoreConfig("etcd", List.of(etcd.endpoint()), "/loadwise/run", null);
            new EtcdConfigSource(new EtcdClient(store.endpointsOrEmpty()), "/loadwise/run", null).push(
                    Configs.config(Configs.tcp("web", TestRoundRobinPolicy.ID, Configs.nodes("127.0.0.1:18080"))));
            Path file = dir.resolve("replica.json");
            LoadwiseConfig local = new LoadwiseConfig(Configs.config().admin(), null, null, null, null, store);
            Files.writeString(file, ConfigLoader.toJson(local));
            RunCommand run = new RunCommand();
            Cli.configure(new CommandLine(run)).parseArgs("--config", file.toString(), "--replica-id", "lb1");

            try (RunCommand.Started started = run.start(ConfigLoader.load(file), Map.of())) {
                assertEquals(List.of("web"), started.dispatcher().clusters().stream().map(c -> c.name()).toList());
                Await.until("the replica is registered", () -> started.dispatcher().replicas().size() == 1);
                assertEquals("lb1", started.dispatcher().replicas().get(0).id());
                assertTrue(ConfigLoader.load(file).clusters() == null, "the file keeps no clusters");
            }
            etcd.stop();
            ConfigValidationException down = assertThrows(ConfigValidationException.class,
                    () -> run.start(ConfigLoader.load(file), Map.of()));
            assertTrue(down.getMessage().contains("cannot be reached"), down.getMessage());
        }
    }
}
