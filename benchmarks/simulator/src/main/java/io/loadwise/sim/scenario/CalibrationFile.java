package io.loadwise.sim.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadwise.scenario.CapacityScenario;
import io.loadwise.scenario.Vcn3Queue;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bench calibrate}'s {@code calibration.json}: per scenario key, the sweep options that make the scenario
 * bite ({@code "scenarios": {"heap": ["--scale", "0.5", "--threads", "60", ...]}}). The simulator takes the options
 * that shape load and nodes and ignores the rest (provisioner, balancing mode).
 */
public final class CalibrationFile {

    public static final String DEFAULT_PATH = "benchmarks/results/calibration.json";

    private final JsonNode scenarios;

    private CalibrationFile(JsonNode scenarios) {
        this.scenarios = scenarios;
    }

    public static CalibrationFile read(Path file) throws IOException {
        return new CalibrationFile(new ObjectMapper().readTree(file.toFile()).path("scenarios"));
    }

    /** The calibrated settings of a scenario, or {@code base} when the calibration has none for it. */
    public TestbedSettings settings(CapacityScenario scenario, TestbedSettings base) {
        JsonNode options = scenarios.path(scenario.key());
        if (!options.isArray()) {
            return base;
        }
        List<String> args = new ArrayList<>();
        options.forEach(o -> args.add(o.asText()));
        return apply(args, base);
    }

    /** Applies sweep options (name, value pairs) to {@code base}. */
    static TestbedSettings apply(List<String> args, TestbedSettings base) {
        int threads = base.threads();
        double scale = base.scale();
        NodeResources n = base.fullNode();
        int heap = n.heapMb();
        int workers = n.workers();
        int queue = n.queue();
        int jdbc = n.jdbcPool();
        int kb = base.sessionKb();
        int timeout = base.sessionTimeoutS();
        int ttl = base.connectionTtlMs();
        Vcn3Queue vcn3Queue = base.vcn3Queue();
        long hold = base.jdbcHoldMs();
        long wait = base.jdbcWaitMs();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            String v = args.get(i + 1);
            switch (args.get(i)) {
                case "--threads" -> threads = Integer.parseInt(v);
                case "--scale" -> scale = Double.parseDouble(v);
                case "--heap-mb" -> heap = Integer.parseInt(v);
                case "--node-threads" -> workers = Integer.parseInt(v);
                case "--node-queue" -> queue = Integer.parseInt(v);
                case "--node-jdbc" -> jdbc = Integer.parseInt(v);
                case "--session-kb" -> kb = Integer.parseInt(v);
                case "--session-timeout-s" -> timeout = Integer.parseInt(v);
                case "--connection-ttl-ms" -> ttl = Integer.parseInt(v);
                case "--vcn3-queue" -> vcn3Queue = Vcn3Queue.parse(v);
                case "--jdbc-hold-ms" -> hold = Long.parseLong(v);
                case "--jdbc-max-wait-ms" -> wait = Long.parseLong(v);
                default -> { } // where programs live or how the dispatcher balances: nothing the model varies
            }
        }
        return new TestbedSettings(threads, scale, new NodeResources(heap, workers, queue, jdbc), kb, timeout, ttl,
                base.thinkMs(), base.demandMs(), base.cores(), base.baseHeapFraction(), wait, base.failureMs(),
                base.agentPeriodMs(), base.agentDelayMs(), base.agentExpiryMs(), base.agentFastMs(), base.agentHeaderMs(),
                base.refreshMs(), hold, vcn3Queue);
    }
}
