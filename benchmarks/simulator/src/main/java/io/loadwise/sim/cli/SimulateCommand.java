package io.loadwise.sim.cli;

import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.sim.agent.AgentSettings;
import io.loadwise.sim.dispatch.ChooserFactory;
import io.loadwise.sim.dispatch.OracleLeastWorkLeft;
import io.loadwise.sim.engine.ClusterModel;
import io.loadwise.sim.engine.Simulation;
import io.loadwise.sim.report.RateSweepReport;
import io.loadwise.sim.service.ServiceTimeModel;
import io.loadwise.sim.service.ServiceTimeModels;
import io.loadwise.sim.workload.Trace;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/** {@code loadwise simulate}: replays a workload through the real policies and the oracle baseline. */
public final class SimulateCommand {

    static final CommandLine.Spec SPEC = new CommandLine.Spec()
            .option("workload", "KIND", "poisson (default) | surge | clf:PATH | wc98:PATH\n"
                    + "clf = Common/Combined Log Format access log, wc98 = 1998 World Cup binary log; .gz is read too")
            .option("rate", "REQ/S", "offered load(s) in requests/s: 250 | 250,500,750 | 250..1250:250\n"
                    + "required for poisson and surge; a log is time-scaled to each rate (seed 004)")
            .option("burstiness", "A,B", "warp time so the trace has seed 004's burstiness <a, b> over 100 epochs\n"
                    + "(its SURGE trace: 1.53,0.48; World Cup: 1.58,0.40); applied before rate scaling")
            .option("time-scale", "F", "log replay only: multiply inter-arrival times by F instead of --rate")
            .option("requests", "N", "requests to generate (default 200000), or the first N records of a log")
            .option("nodes", "N", "number of nodes (default 4, or the number of --speeds)")
            .option("speeds", "S1,S2,..", "relative node speeds, 1 = the speed service times are given for (default all 1)")
            .option("weights", "W1,W2,..", "static node weights seen by weighted policies (default all 1)")
            .option("policy", "ID[,ID..]", "policies to compare, looked up in the policy registry\n"
                    + "(default round-robin,least-connections); the oracle baseline " + OracleLeastWorkLeft.NAME
                    + " always runs too")
            .option("policy-option", "[ID:]NAME=VALUE", "a policy option, as policyOptions in the cluster config (repeatable);\n"
                    + "with ID: for that policy only, e.g. jvm-aware:heapThreshold=80")
            .flag("list-policies", "list the policies found on the class path and exit")
            .option("service", "MODEL", ServiceTimeModels.SYNTAX + "\n(default exponential); teo-ayani = seed 004's"
                    + " L/K + C with its measured static/dynamic K and C")
            .option("service-ms", "MS", "mean service time at speed 1 for exponential/deterministic (default 10)")
            .option("service-rate", "MU", "the same given as a rate, requests/s per node at speed 1")
            .option("size-bytes", "B", "response size of every Poisson request, for size-based models (default 13564)")
            .option("ues", "N", "surge: user equivalents (default 400)")
            .option("files", "N", "surge: distinct files (default 2000)")
            .option("zipf", "S", "surge: Zipf popularity exponent (default 1.0)")
            .option("dynamic-fraction", "F", "surge: share of files served dynamically (default 0.155)")
            .option("agent-period-ms", "MS", "simulated agents sample every MS of virtual time; 0 = off (default 1000)")
            .option("agent-delay-ms", "MS", "a sample reaches the dispatcher MS after it was taken (default 0)")
            .option("agent-noise", "F", "relative standard deviation of Gaussian noise on every metric (default 0)")
            .option("agent-expiry-ms", "MS", "samples older than MS read as missing (default 3000)")
            .option("warmup", "N", "leave the first N requests out of the statistics (default 0)")
            .option("seed", "S", "seed of every random draw; same seed, same results (default 1)")
            .option("out", "DIR", "also write results.csv and PNG plots into DIR")
            .flag("help", "show this help");

    private SimulateCommand() {
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return CommandRun.run("simulate", SPEC, usage(), args, out, err, cl -> {
            PolicyRegistry registry = PolicyRegistry.load();
            if (cl.has("list-policies")) {
                for (LoadBalancingPolicy p : registry.all().values()) {
                    out.printf("%-28s %s%s%n", p.id(), p.description(),
                            p.inputs().contains(PolicyInput.AGENT_METRICS) ? " [agent metrics]" : "");
                }
                out.printf("%-28s %s%n", OracleLeastWorkLeft.NAME, "simulator-only baseline, always run");
                return 0;
            }
            return simulate(cl, registry, out);
        });
    }

    static String usage() {
        return "Usage: loadwise simulate [options]\n\n"
                + "Discrete-event simulation of a cluster of FCFS nodes behind the dispatcher. Every request is\n"
                + "placed by the real policy classes through the policy SPI (dynamic ones fed by simulated,\n"
                + "optionally delayed and noisy agent samples) and by the oracle least-work-left baseline;\n"
                + "results are given absolute and as a ratio to the oracle.\n\nOptions:\n" + SPEC.usage()
                + "\nExample (seed 004 Table 5 shape):\n"
                + "  loadwise simulate --workload surge --requests 400000 --nodes 4 --service teo-ayani \\\n"
                + "      --rate 250,500,750,1000 --policy round-robin,least-connections --out results/\n"
                + "\nExit codes: 0 ok, 1 I/O error, 2 bad options.\n";
    }

    private static int simulate(CommandLine cl, PolicyRegistry registry, PrintStream out) throws IOException {
        long seed = cl.getLong("seed", 1);
        WorkloadOptions workload = WorkloadOptions.from(cl, seed);
        ServiceTimeModel service = serviceModel(cl);
        ClusterModel cluster = ClusterOptions.cluster(cl);
        List<ChooserFactory> choosers = ClusterOptions.choosers(cl, registry);
        AgentSettings agents = new AgentSettings(cl.getLong("agent-period-ms", 1000), cl.getLong("agent-delay-ms", 0),
                cl.getDouble("agent-noise", 0), cl.getLong("agent-expiry-ms", 3000));
        Simulation simulation = new Simulation(cluster, agents, cl.getInt("warmup", 0), seed + 2);

        Trace base = workload.baseTrace(out);
        double[] demands = service.demands(base, new SplittableRandom(seed + 1));
        double meanDemand = mean(demands);
        double capacity = 0;
        for (double s : cluster.speeds()) {
            capacity += s;
        }
        double[] burst = base.burstiness(100);
        out.printf(Locale.ROOT, "workload: %s, %d requests, mean size %.0f B, %.1f %% dynamic, burstiness <a, b> = "
                + "<%.2f, %.2f> over 100 epochs%n", base.description(), base.size(), base.meanSizeBytes(),
                100 * base.dynamicFraction(), burst[0], burst[1]);
        out.printf(Locale.ROOT, "service:  %s; mean demand %.4f ms at speed 1%n", service.description(), meanDemand * 1e3);
        out.printf(Locale.ROOT, "cluster:  %d nodes, speeds %s, weights %s; agents every %d ms, delay %d ms, noise %.2f%n",
                cluster.size(), java.util.Arrays.toString(cluster.speeds()), java.util.Arrays.toString(cluster.weights()),
                agents.periodMillis(), agents.delayMillis(), agents.noise());

        RateSweepReport report = new RateSweepReport();
        for (Map.Entry<Double, Trace> e : workload.traces(base).entrySet()) {
            Trace trace = e.getValue();
            double rho = trace.meanRatePerSecond() * meanDemand / capacity;
            out.printf(Locale.ROOT, "running %.2f req/s (offered utilisation ρ = %.3f%s)…%n", trace.meanRatePerSecond(),
                    rho, rho >= 1 ? ", overloaded: queues grow for the whole run" : "");
            for (ChooserFactory chooser : choosers) {
                report.add(e.getKey(), simulation.run(trace, demands, chooser));
            }
        }
        report.printTables(out);
        if (cl.has("out")) {
            Path dir = Path.of(cl.get("out", "."));
            report.writeCsv(dir.resolve("results.csv"));
            List<Path> plots = report.writePlots(dir, String.format(Locale.ROOT, " (%d nodes)", cluster.size()));
            out.println("wrote " + dir.resolve("results.csv") + " and " + plots.size() + " plots in " + dir);
        }
        return 0;
    }

    private static ServiceTimeModel serviceModel(CommandLine cl) {
        if (cl.has("service-ms") && cl.has("service-rate")) {
            throw new UsageException("give either --service-ms or --service-rate, not both");
        }
        double meanSeconds = cl.has("service-rate") ? 1 / cl.getPositive("service-rate", 100)
                : cl.getPositive("service-ms", 10) / 1e3;
        return ServiceTimeModels.parse(cl.get("service", "exponential"), meanSeconds);
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }
}
