package io.loadwise.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CapacityCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return CapacityCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void reproducesTheSeedExampleWithOperatingPointAndWhatIf() {
        assertEquals(0, run("--servers", "2", "--service-rate", "104.13", "--arrival-rate", "100"));
        String text = out();
        // λ ρ | M/M/1 R N | (M/M/1)^n R N | RR E_n/M/1 R | M/M/n R N P(wait)
        assertTrue(text.matches("(?s).*100\\.00\\s+0\\.480 \\|\\s+242\\.13\\s+24\\.213 \\|\\s+18\\.47\\s+1\\.847 \\|"
                + "\\s+15\\.01 \\|\\s+12\\.48\\s+1\\.248\\s+0\\.312.*"), text);
        assertTrue(text.contains("λ = 166.61 req/s (R 48.02 / 36.92 / 26.68 ms)"), "80 % operating point: " + text);
        assertTrue(text.contains("Caveat: least connections measured 4-14 % slower than M/M/n"), text);
        assertTrue(text.contains("beyond λ = 187.43 req/s"), "90 % validity limit: " + text);
        assertTrue(text.contains("needs 2 nodes to stay at or below 80 %"), text);
        assertTrue(text.matches("(?s).*3 \\(\\+1\\)\\s+0\\.320.*"), "what-if with one node more: " + text);
    }

    @Test
    void constantServiceGivesTheMdModelsAndTheSeedsMeasurement() {
        // seed 000 Table 6.2 at 200 req/s: measured 66.04 ms; the simulator's round robin, deterministic: 66.17 ms
        assertEquals(0, run("--servers", "2", "--service-rate", "104.13", "--arrival-rate", "200", "--service-scv", "0"));
        String text = out();
        assertTrue(text.contains("constant service (c_s² = 0)"), text);
        assertTrue(text.matches("(?s).*M/D/1 R .*\\(M/D/1\\)\\^n R .*RR E_n/D/1 .*M/D/n R .*"), text);
        assertTrue(text.matches("(?s).*200\\.00\\s+0\\.960 \\|\\s+∞\\s+∞ \\|\\s+125\\.87\\s+25\\.173 \\|\\s+66\\.68 \\|"
                + "\\s+66\\.56 .*"), text);
        assertTrue(text.contains("Lee-Longton approximation"), text);
    }

    @Test
    void flagsLoadsBeyondTheModelsValidity() {
        assertEquals(0, run("--servers", "1..3", "--service-rate", "100", "--arrival-rate", "85,95,150"));
        String text = out();
        assertTrue(text.contains("> 80 %: above operating rule"), text);
        assertTrue(text.contains("> 90 %: beyond model validity"), text);
        assertTrue(text.contains("overloaded: no steady state"), text);
        assertTrue(text.contains("3 nodes: capacity n·μ = 300.00 req/s"), text);
    }

    @Test
    void drawsTheResponseTimeChart(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("plan.png");
        assertEquals(0, run("--servers", "1..4", "--service-rate", "104.13", "--plot", png.toString()));
        assertEquals(600, ImageIO.read(png.toFile()).getHeight());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--servers 2|give exactly one of --service-rate MU or --measure URL",
        "--servers 2 --service-rate 100 --measure http://x/|give exactly one of",
        "--service-rate 100|--servers is required",
        "--servers 0 --service-rate 100|node counts must be within 1..10000",
        "--servers 2 --service-rate -3|--service-rate: must be a positive number",
        "--servers 2 --service-rate 100 --arrival-rate 1..x|--arrival-rate: 'x' is not a number",
        "--servers 2.5 --service-rate 100|--servers: 2.5 is not a whole number",
        "--servers 2 --measure ftp://host/|only http:// and https:// URLs can be measured",
        "--nodes 2|unknown option '--nodes'",
        "--servers 2 --measure http:/nohost|the URL has no host",
        "--servers 2 --service-rate 100 --service-scv -1|--service-scv: must be a number >= 0 (0 constant, 1 exponential), got -1.0",
        "--servers 2 --service-rate 100 --service-scv x|--service-scv"})
    void badOptionsFailWithASpecificMessage(String args, String message) {
        assertEquals(2, run(args.split(" ")));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains(message), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anUnreachableNodeIsAClearMeasurementFailure() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort(); // closed again: nothing listens there now
        }
        assertEquals(1, run("--measure", "http://127.0.0.1:" + port + "/", "--step-seconds", "0.2"));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("cannot get http://127.0.0.1:" + port + "/") && e.contains("ConnectException"), e);
    }

    @Test
    void helpAndTheJarsDispatcher() {
        assertEquals(0, Main.run(new String[] {"capacity", "--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(out().contains("--measure URL") && out().contains("12.48 ms"), out());
        assertEquals(2, Main.run(new String[] {"simulat"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown command 'simulat'"));
    }
}
