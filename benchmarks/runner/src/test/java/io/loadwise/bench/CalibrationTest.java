package io.loadwise.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.PolicyRow;
import io.loadwise.bench.sweep.TestRuns;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CalibrationTest {

    @TempDir
    Path tmp;

    private static final PolicyRow RR = PolicyRow.HTTP_ROUND_ROBIN;
    private static final PolicyRow CONTROL = PolicyRow.HTTP_STATIC_WRR;

    private static List<CellResult> rr(long failed, long onVcn3) {
        return List.of(TestRuns.run("heap", RR, 1, failed, 500, onVcn3));
    }

    private static List<CellResult> control(long failed) {
        return List.of(TestRuns.run("heap", CONTROL, 1, failed, 500, 0));
    }

    @Test
    void aScenarioBitesWhenRoundRobinFailsOnePercentOnVcn3AndTheControlNothing() {
        assertTrue(Calibration.bites(rr(10, 10), control(0), false), "1 % of 1000, all on VCN3");
        assertFalse(Calibration.bites(rr(9, 9), control(0), false), "0.9 % is below the bar");
        assertFalse(Calibration.bites(rr(10, 10), control(1), false), "the control must fail none");
        assertFalse(Calibration.bites(rr(10, 0), control(0), false), "failures not through VCN3");
        assertTrue(Calibration.bites(rr(10, 0), control(0), true), "VCN3 ran out of heap");
        assertFalse(Calibration.bites(List.of(), control(0), false), "nothing ran");
        CellResult broken = CellResult.failed("heap", RR.key(), "dispatcher did not start", "t", 1);
        assertFalse(Calibration.bites(List.of(broken), control(0), false));
    }

    private static Calibration.Trial trial(String value, String scenario, boolean bites) {
        List<String> options = List.of("--threads", value);
        return Calibration.trial(value, scenario, options, bites ? rr(20, 20) : rr(0, 0), control(0), false);
    }

    @Test
    void theFirstBitingSettingPerScenarioAndTheFirstCommonOneAreRecorded() {
        Calibration c = Calibration.of("now", List.of(trial("40", "heap", false), trial("40", "jdbc", true),
                trial("60", "heap", true), trial("60", "jdbc", true), trial("90", "heap", true)));
        assertEquals(List.of("--threads", "60"), c.scenarios().get("heap"));
        assertEquals(List.of("--threads", "40"), c.scenarios().get("jdbc"));
        assertEquals(List.of("--threads", "60"), c.common());
        assertEquals(List.of("--threads", "60"), c.optionsFor(List.of("baseline", "heap", "jdbc"), tmp),
                "they differ, so the common setting; the baseline, never calibrated, follows");
        assertEquals(List.of("--threads", "40"), c.optionsFor(List.of("jdbc"), tmp));
        assertTrue(c.markdown().contains("| 60 | heap | 2.00 | 20 / 0 | no | 0 | **yes** |"), c.markdown());
    }

    @Test
    void scenariosThatNeedDifferentSettingsCannotShareASweep() {
        Calibration c = Calibration.of("now", List.of(trial("40", "heap", false), trial("40", "jdbc", true),
                trial("60", "heap", true), trial("60", "jdbc", false)));
        assertNull(c.common());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> c.optionsFor(List.of("heap", "jdbc"), Path.of("cal.json")));
        assertTrue(e.getMessage().contains("sweep each group with its own --scenarios"), e.getMessage());
        Calibration none = Calibration.of("now", List.of(trial("40", "heap", false)));
        e = assertThrows(IllegalArgumentException.class, () -> none.optionsFor(List.of("heap"), Path.of("cal.json")));
        assertTrue(e.getMessage().contains("found no setting under which [heap] bites"), e.getMessage());
    }

    @Test
    void theCommandLineWinsOverTheCalibration() {
        assertEquals(List.of("--session-kb", "450", "--threads", "90", "--seed", "3"),
                Calibration.merge(List.of("--threads", "60", "--session-kb", "450"), List.of("--threads", "90", "--seed", "3")));
    }

    @Test
    void aCalibrationSurvivesItsFile() throws IOException {
        Calibration c = Calibration.of("now", List.of(trial("60", "heap", true)));
        Path file = tmp.resolve("results/calibration.json");
        c.write(file);
        assertEquals(c, Calibration.read(file));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Calibration.read(tmp.resolve("absent.json")));
        assertTrue(e.getMessage().startsWith("calibration " + tmp.resolve("absent.json") + " cannot be read"), e.getMessage());
    }

    @Test
    void theRecordedOptionsAreASweepsEffectiveSettingsVcn3QueueIncluded() throws IOException {
        io.loadwise.bench.sweep.SweepSettings settings = new io.loadwise.bench.sweep.SweepSettings("calibration",
                List.of("http-threads"), List.of("http-round-robin"), 0.1, 60,
                io.loadwise.node.NodeCapacity.BASELINE.withHeapMb(96), "half", 400L, 600L, 450, 10, "tomcat", "trade-scenario.jmx",
                false, 0.0, null, "per-connection", 1000, 1, "a test", 16, null);
        List<String> options = Calibration.options(settings);
        assertEquals(List.of("--scale", "0.1", "--threads", "60", "--heap-mb", "96", "--node-threads", "12",
                "--node-queue", "12", "--vcn3-queue", "half", "--node-jdbc", "10", "--jdbc-hold-ms", "400",
                "--jdbc-max-wait-ms", "600", "--session-kb", "450",
                "--session-timeout-s", "10", "--http-balance", "per-connection", "--connection-ttl-ms", "1000",
                "--provisioner", "tomcat"), options);
        List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < options.size(); i += 2) {
            names.add(options.get(i));
        }
        assertEquals(Calibration.RECORDED_OPTIONS, names, "options() records exactly RECORDED_OPTIONS, in order");
        // a sweep.json written before the option existed ran the seed's queue
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode tree = json.valueToTree(settings);
        assertEquals("half", tree.get("vcn3Queue").asText(), "sweep.json shows it");
        assertEquals(400, tree.get("jdbcHoldMs").asLong());
        tree.remove("vcn3Queue");
        tree.remove("jdbcHoldMs");
        tree.remove("jdbcMaxWaitMs");
        io.loadwise.bench.sweep.SweepSettings old = json.treeToValue(tree, io.loadwise.bench.sweep.SweepSettings.class);
        assertEquals("seed", old.vcn3Queue());
        assertEquals(0, old.jdbcHoldMs(), "a sweep before --jdbc-hold-ms held nothing");
        assertEquals(10_000, old.jdbcMaxWaitMs(), "and waited 10 s");
    }

    @Test
    void calibratingOneScenarioKeepsWhatWasFoundForTheOthers() throws IOException {
        Path file = tmp.resolve("calibration.json");
        Calibration.of("before", List.of(trial("60", "jdbc", true), trial("60", "heap", false))).write(file);
        Calibration merged = CalibrateCommand.mergedWithEarlier(Calibration.of("now", List.of(trial("90", "heap", true))), file);
        assertEquals(List.of("--threads", "60"), merged.scenarios().get("jdbc"));
        assertEquals(List.of("--threads", "90"), merged.scenarios().get("heap"));
        assertEquals(2, merged.tried().size(), "the earlier heap trial is replaced");
    }
}
