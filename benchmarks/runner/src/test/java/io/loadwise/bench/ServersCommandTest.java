package io.loadwise.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServersCommandTest {

    @TempDir
    Path dir;

    @Test
    void choosesServersInRunOrderAndRejectsUnknownOnes() {
        assertEquals(List.of("wildfly", "liberty"), ServersCommand.chosen(null));
        assertEquals(List.of("liberty"), ServersCommand.chosen(" Liberty "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServersCommand.chosen("jetty"));
        assertTrue(e.getMessage().contains("'jetty'") && e.getMessage().contains("wildfly, liberty"), e.getMessage());
    }

    @Test
    void runsOnlyTheServersTestUnderItsProfile() {
        List<String> command = ServersCommand.command("liberty");
        assertTrue(command.contains("-Pliberty") && command.contains("-Dit.test=LibertyNodeIT,LibertyRegistrationIT"),
                command.toString());
    }

    @Test
    void summaryTablesWhichMetricsArrivedOnEachServer() throws Exception {
        Files.createDirectories(dir.resolve("wildfly"));
        Files.writeString(dir.resolve("wildfly/agent-metrics.txt"), "AMX_JDBC_ACTC%=0.0\nAPP_RQST_RATE=2.0\nOS_CPU_USED%=5\n");
        Map<String, Boolean> passed = new LinkedHashMap<>();
        passed.put("wildfly", true);
        passed.put("liberty", false);
        String md = ServersCommand.summary(passed, dir);
        assertTrue(md.contains("| wildfly | passed |") && md.contains("| liberty | failed |"), md);
        assertTrue(md.contains("| AMX_JDBC_ACTC% | yes | - |"), md);
        assertTrue(md.contains("| APP_RQST_RATE | yes | - |"), md);
        assertTrue(!md.contains("OS_CPU_USED%"), md);
    }
}
