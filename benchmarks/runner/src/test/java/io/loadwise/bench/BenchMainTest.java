package io.loadwise.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad command lines fail before anything starts, with exit code 2 and a message naming the problem. */
class BenchMainTest {

    @TempDir
    Path tmp;

    private List<String> base;

    @BeforeEach
    void jars() throws IOException {
        Path fake = Files.writeString(tmp.resolve("fake.jar"), "not started by these tests");
        base = List.of("--root", Locations.defaultRoot().toString(), "--dispatcher-jar", fake.toString(),
                "--launcher-jar", fake.toString(), "--agent-jar", "none", "--out", tmp.resolve("out").toString(),
                // a calibration recorded in the repository must not change what these command lines mean
                "--calibrated", "none");
    }

    private String[] run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        if (all.size() > 0 && all.get(0).equals("sweep")) {
            all.addAll(base);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BenchMain.run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(code), out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8)};
    }

    private void rejected(String expected, String... args) {
        String[] result = run(args);
        assertEquals("2", result[0], result[2]);
        assertTrue(result[2].contains(expected), result[2]);
        assertTrue(!Files.exists(tmp.resolve("out")), "nothing may run for a bad command line");
    }

    @Test
    void helpAndUnknownCommands() {
        String[] help = run("--help");
        assertEquals("0", help[0]);
        assertTrue(help[1].contains("sweep") && help[1].contains("calibrate") && help[1].contains("overhead"));
        assertTrue(run("sweep", "--help")[1].contains("--scale=X"));
        rejected("unknown command 'swep'", "swep");
    }

    @Test
    void badSweepOptionsAreNamed() {
        rejected("unknown option '--sacle'", "sweep", "--sacle", "0.1");
        rejected("multiple of 10", "sweep", "--threads", "25");
        rejected("--scale needs a number, got 'fast'", "sweep", "--scale", "fast");
        rejected("duration scale must be in (0, 10]", "sweep", "--scale", "0");
        rejected("unknown scenario 'disk'", "sweep", "--scenarios", "baseline,disk");
        rejected("unknown policy row 'jvm-aware'", "sweep", "--policies", "jvm-aware"); // no mode
        rejected("--repeats 2 is below the method's 5 runs per cell", "sweep", "--repeats", "2");
        rejected("heapMb must be at least 32", "sweep", "--heap-mb", "48");
        rejected("unknown provisioner 'jetty'", "sweep", "--provisioner", "jetty");
        rejected("--provisioner glassfish: no GlassFish 7 at /nonexistent/glassfish7", "sweep", "--provisioner",
                "glassfish", "--glassfish-home", "/nonexistent/glassfish7");
        rejected("--session-kb must not be negative, got -1", "sweep", "--session-kb", "-1");
        rejected("--vary needs OPTION=v1,v2,..., got 'session-kb'", "calibrate", "--vary", "session-kb");
        rejected("--vary: 'out' is not a sweep option that can be varied", "calibrate", "--vary", "out=a,b");
        rejected("--http-balance: 'sticky'", "sweep", "--http-balance", "sticky");
        rejected("--threads needs a value", "sweep", "--heap-mb", "64", "--threads");
    }
}
