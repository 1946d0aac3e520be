package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestFirstUsablePolicy;
import io.loadwise.testsupport.TestRoundRobinPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import sun.misc.Signal;

/** {@code kill -HUP} reloads the file: this test signals its own JVM, with the handler installed first. */
class ReloadSignalTest {

    @TempDir
    Path dir;

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void sighupReloadsTheFile() throws Exception {
        assumeFalse(HupIgnored.inThisProcess(), "this JVM ignores SIGHUP (nohup): no SIGHUP can reach it or its children");
        Path file = dir.resolve("loadwise.json");
        String node = Configs.deadAddress();
        LoadwiseConfig first = Configs.config(Configs.tcp("web", TestRoundRobinPolicy.ID, Configs.nodes(node)));
        Files.writeString(file, ConfigLoader.toJson(first));
        try (Transport transport = new Transport(1);
                Dispatcher dispatcher = new Dispatcher(first, new ConfigStore(file), PolicyRegistry.load(), transport,
                        new ModeListenerFactory())) {
            dispatcher.start("test-token-0123456789", false);
            ReloadSignal.install(dispatcher);
            Files.writeString(file, ConfigLoader.toJson(Configs.config(
                    Configs.tcp("web", TestFirstUsablePolicy.ID, Configs.nodes(node)))));

            Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(ProcessHandle.current().pid())).start();
            assertEquals(0, kill.waitFor(10, TimeUnit.SECONDS) ? kill.exitValue() : -1);

            Await.until("the policy of the file is in force",
                    () -> dispatcher.cluster("web").policy().id().equals(TestFirstUsablePolicy.ID));
        }
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aSighupBeforeTheDispatcherIsReadyReloadsOnceItIs() throws Exception {
        ReloadSignal handler = ReloadSignal.install(); // as run does, before anything listens
        Path file = dir.resolve("loadwise.json");
        String node = Configs.deadAddress();
        LoadwiseConfig first = Configs.config(Configs.tcp("web", TestRoundRobinPolicy.ID, Configs.nodes(node)));
        Files.writeString(file, ConfigLoader.toJson(first));
        try (Transport transport = new Transport(1);
                Dispatcher dispatcher = new Dispatcher(first, new ConfigStore(file), PolicyRegistry.load(), transport,
                        new ModeListenerFactory())) {
            dispatcher.start("test-token-0123456789", false);
            Files.writeString(file, ConfigLoader.toJson(Configs.config(
                    Configs.tcp("web", TestFirstUsablePolicy.ID, Configs.nodes(node)))));
            handler.handle(new Signal("HUP")); // while starting: no dispatcher to reload yet, remembered

            assertEquals(TestRoundRobinPolicy.ID, dispatcher.cluster("web").policy().id(),
                    "nothing reloads before the dispatcher is handed over");
            handler.ready(dispatcher);
            Await.until("the remembered SIGHUP reloaded the file",
                    () -> dispatcher.cluster("web").policy().id().equals(TestFirstUsablePolicy.ID));
        }
    }
}
