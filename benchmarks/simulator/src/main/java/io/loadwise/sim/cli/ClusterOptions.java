package io.loadwise.sim.cli;

import io.loadwise.cli.UsageException;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.sim.dispatch.ChooserFactory;
import io.loadwise.sim.dispatch.OracleLeastWorkLeft;
import io.loadwise.sim.dispatch.PolicyChooser;
import io.loadwise.sim.engine.ClusterModel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The cluster and policy options of {@code simulate} (a picocli mixin): nodes, speeds, weights, policies and
 * their options.
 */
final class ClusterOptions {

    @Option(names = "--nodes", paramLabel = "N", description = "number of nodes (default 4, or the number of --speeds)")
    Integer nodes;

    @Option(names = "--speeds", paramLabel = "S1,S2,..",
            description = "relative node speeds, 1 = the speed service times are given for (default all 1)")
    String speeds;

    @Option(names = "--weights", paramLabel = "W1,W2,..",
            description = "static node weights seen by weighted policies (default all 1)")
    String weights;

    @Option(names = "--policy", paramLabel = "ID[,ID..]", description = {
        "policies to compare, looked up in the policy registry",
        "(default round-robin,least-connections); the oracle baseline " + OracleLeastWorkLeft.NAME + " always runs too"})
    String policies = "round-robin,least-connections";

    @Option(names = "--policy-option", paramLabel = "[ID:]NAME=VALUE", description = {
        "a policy option, as policyOptions in the cluster config (repeatable);",
        "with ID: for that policy only, e.g. jvm-aware:heapThreshold=80"})
    List<String> policyOptions = new ArrayList<>();

    ClusterModel cluster() {
        List<Double> speeds = NumberLists.doubles("--speeds", this.speeds);
        List<Integer> weights = NumberLists.ints("--weights", this.weights);
        int n = nodes != null ? nodes : speeds.isEmpty() ? (weights.isEmpty() ? 4 : weights.size()) : speeds.size();
        if (n < 1) {
            throw new UsageException("--nodes: need at least 1 node, got " + n);
        }
        if (!speeds.isEmpty() && speeds.size() != n) {
            throw new UsageException("--speeds: " + speeds.size() + " values for " + n + " nodes");
        }
        if (!weights.isEmpty() && weights.size() != n) {
            throw new UsageException("--weights: " + weights.size() + " values for " + n + " nodes");
        }
        double[] s = new double[n];
        int[] w = new int[n];
        for (int i = 0; i < n; i++) {
            s[i] = speeds.isEmpty() ? 1 : speeds.get(i);
            w[i] = weights.isEmpty() ? 1 : weights.get(i);
        }
        try {
            return new ClusterModel(s, w);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--speeds/--weights: " + e.getMessage());
        }
    }

    List<ChooserFactory> choosers(PolicyRegistry registry) {
        // "NAME=VALUE" goes to every policy, "ID:NAME=VALUE" to policy ID only
        Map<String, Map<String, Double>> scoped = new LinkedHashMap<>();
        for (String option : policyOptions) {
            int colon = option.indexOf(':');
            String scope = colon > 0 ? option.substring(0, colon) : "";
            String kv = option.substring(colon + 1);
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("--policy-option " + option + ": expected NAME=VALUE or POLICY:NAME=VALUE");
            }
            try {
                scoped.computeIfAbsent(scope, k -> new LinkedHashMap<>())
                        .put(kv.substring(0, eq), Double.parseDouble(kv.substring(eq + 1)));
            } catch (NumberFormatException e) {
                throw new UsageException("--policy-option " + option + ": value is not a number");
            }
        }
        List<ChooserFactory> choosers = new ArrayList<>();
        choosers.add(OracleLeastWorkLeft.FACTORY);
        List<String> ids = new ArrayList<>();
        for (String id : policies.split(",")) {
            id = id.trim();
            if (id.equals(OracleLeastWorkLeft.NAME)) {
                continue;
            }
            ids.add(id);
            Map<String, Double> options = new LinkedHashMap<>(scoped.getOrDefault("", Map.of()));
            options.putAll(scoped.getOrDefault(id, Map.of()));
            choosers.add(PolicyChooser.factory(registry.get(id), PolicyOptions.of(options)));
        }
        for (String scope : scoped.keySet()) {
            if (!scope.isEmpty() && !ids.contains(scope)) {
                throw new UsageException("--policy-option " + scope + ":…: policy " + scope + " is not in --policy");
            }
        }
        return choosers;
    }
}
