package io.loadwise.bench.sweep;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.loadwise.bench.provision.JdbcTiming;
import io.loadwise.node.NodeCapacity;
import io.loadwise.scenario.CapacityScenario;
import io.loadwise.scenario.Vcn3Queue;
import java.util.List;

/**
 * What a sweep runs; stored as {@code sweep.json} in its results folder so that a later run of the
 * command resumes it only with the same settings.
 *
 * @param name         folder suffix, e.g. "sweep" or "sweep-quick"
 * @param scenarios    scenario keys (the run order is {@link RunOrder}'s)
 * @param rows         policy row keys
 * @param scale        duration scale
 * @param threads      JMeter threads
 * @param fullNode     capacity of a full node (VCN1/VCN2, and VCN3 in the baseline)
 * @param vcn3Queue    seed (VCN3 keeps the full request queue, Table 9) or half (halved with its worker threads);
 *                     a sweep.json written before the option reads as seed, which it ran
 * @param jdbcHoldMs   each trade scenario request holds a JDBC connection this long (0: none; absent from a
 *                     sweep.json written before the option: 0, which it ran)
 * @param jdbcMaxWaitMs longest wait for a pooled JDBC connection (absent: 10000, which it ran)
 * @param sessionStateKb fixed per-session state of the trade app ({@code trade.session.stateKb})
 * @param sessionTimeoutSeconds idle timeout of the trade app's sessions, 0 for its own (30 min)
 * @param provisioner  tomcat or glassfish
 * @param plan         the .jmx file name
 * @param agent        whether the node agent JAR was added to the nodes
 * @param agentNoise   relative noise the nodes put on every agent reading (uniform within ±agentNoise), issue 31's
 *                     deliberately noisy run; null (not written) for none, as in a sweep.json written before the option
 * @param gcPressure   {@code NODE:PERIOD_MS[:BALLAST_MB]}: that node collects garbage over and over; null for none
 * @param httpBalance  per-connection (the seed's) or per-request (with cookie affinity)
 * @param connectionTtlMs JMeter's connection lifetime (ms)
 * @param repeats      runs of every cell
 * @param repeatsReason why fewer than {@link #RECOMMENDED_REPEATS} were run, null otherwise
 * @param seed         seed of the randomised run order
 * @param calibration  where the settings came from: a {@code bench calibrate} file, or null for the defaults
 *                     and the command line
 */
public record SweepSettings(String name, List<String> scenarios, List<String> rows, double scale, int threads,
        NodeCapacity fullNode, String vcn3Queue, Long jdbcHoldMs, Long jdbcMaxWaitMs, int sessionStateKb, int sessionTimeoutSeconds, String provisioner, String plan, boolean agent,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double agentNoise,
        @JsonInclude(JsonInclude.Include.NON_NULL) String gcPressure, String httpBalance, int connectionTtlMs, int repeats, String repeatsReason, long seed, String calibration) {

    /** Runs per cell the method asks for; fewer must give a reason, which the results print. */
    public static final int RECOMMENDED_REPEATS = 5;

    public SweepSettings {
        vcn3Queue = vcn3Queue == null ? Vcn3Queue.SEED.key() : Vcn3Queue.parse(vcn3Queue).key();
        jdbcHoldMs = jdbcHoldMs == null ? JdbcTiming.DEFAULT.holdMs() : jdbcHoldMs;
        jdbcMaxWaitMs = jdbcMaxWaitMs == null ? JdbcTiming.DEFAULT.maxWaitMs() : jdbcMaxWaitMs;
        new JdbcTiming(jdbcHoldMs, jdbcMaxWaitMs); // checks both (the fields are not set yet)
        if (agentNoise != null && !(agentNoise >= 0 && agentNoise < 1)) {
            throw new IllegalArgumentException("--agent-noise must be at least 0 and below 1, got " + agentNoise);
        }
        // none is null, so a sweep.json without the option is written back as it was, and resumes
        agentNoise = agentNoise == null || agentNoise == 0 ? null : agentNoise;
        if (gcPressure != null && !gcPressure.matches("[A-Za-z0-9_-]+:[0-9]+(:[0-9]+)?")) {
            throw new IllegalArgumentException("--gc-pressure: expected NODE:PERIOD_MS[:BALLAST_MB], e.g. VCN3:100:40,"
                    + " got '" + gcPressure + "'");
        }
    }

    /** Every run of the sweep, in its randomised, interleaved order. */
    public List<RunOrder.Run> order() {
        return RunOrder.of(scenarios, rows, repeats, seed);
    }

    /** How the trade app's requests use the JDBC pools. */
    public JdbcTiming jdbc() {
        return new JdbcTiming(jdbcHoldMs, jdbcMaxWaitMs);
    }

    /** The relative noise put on every agent reading, 0 for none. */
    public double readingNoise() {
        return agentNoise == null ? 0 : agentNoise;
    }

    /** The node that collects over and over, or null. */
    public String gcPressureNode() {
        return gcPressure == null ? null : gcPressure.substring(0, gcPressure.indexOf(':'));
    }

    /** Its {@code PERIOD_MS[:BALLAST_MB]}, or null. */
    public String gcPressureSetting() {
        return gcPressure == null ? null : gcPressure.substring(gcPressure.indexOf(':') + 1);
    }

    public Durations durations() {
        return Durations.scaled(scale, threads);
    }

    public CapacityPlan capacity() {
        return new CapacityPlan(fullNode, Vcn3Queue.parse(vcn3Queue));
    }

    public List<CapacityScenario> scenarioList() {
        return scenarios.stream().map(CapacityScenario::byKey).toList();
    }

    public List<PolicyRow> rowList() {
        return rows.stream().map(PolicyRow::parse).toList();
    }

    public int cells() {
        return scenarios.size() * rows.size();
    }
}
