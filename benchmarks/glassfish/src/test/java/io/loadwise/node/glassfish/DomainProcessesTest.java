package io.loadwise.node.glassfish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DomainProcessesTest {

    @TempDir
    Path temp;

    @Test
    void killsExactlyTheProcessesThatNameTheDomainDirectory() throws Exception {
        Path domain = temp.resolve("node");
        Process mine = pretendServer(domain);
        Process neighbour = pretendServer(temp.resolve("node2"));
        try {
            assertEquals(List.of(mine.pid()), DomainProcesses.of(domain).stream().map(ProcessHandle::pid).toList());
            assertEquals(1, DomainProcesses.kill(domain, Duration.ofSeconds(10)));
            assertTrue(mine.waitFor(10, TimeUnit.SECONDS));
            assertTrue(neighbour.isAlive(), "a domain whose name only starts the same must survive");
            assertEquals(List.of(), DomainProcesses.of(domain));
        } finally {
            mine.destroyForcibly();
            neighbour.destroyForcibly();
        }
    }

    /** A long-running process whose command line names the domain as a GlassFish server's does. */
    private static Process pretendServer(Path domainDir) throws Exception {
        // "; exit" keeps bash alive (and its command line intact) instead of exec-ing sleep.
        return new ProcessBuilder("bash", "-c", "sleep 120; exit", "-Dcom.sun.aas.instanceRoot=" + domainDir)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }
}
