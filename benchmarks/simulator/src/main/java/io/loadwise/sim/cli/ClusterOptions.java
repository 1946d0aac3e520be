package io.loadwise.sim.cli;

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

/** The cluster and policy options of {@code simulate}: nodes, speeds, weights, policies and their options. */
final class ClusterOptions {

    private ClusterOptions() {
    }

    static ClusterModel cluster(CommandLine cl) {
        List<Double> speeds = cl.getDoubles("speeds");
        List<Integer> weights = cl.getInts("weights");
        int n = cl.getInt("nodes", speeds.isEmpty() ? (weights.isEmpty() ? 4 : weights.size()) : speeds.size());
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

    static List<ChooserFactory> choosers(CommandLine cl, PolicyRegistry registry) {
        // "NAME=VALUE" goes to every policy, "ID:NAME=VALUE" to policy ID only
        Map<String, Map<String, Double>> scoped = new LinkedHashMap<>();
        for (String option : cl.all("policy-option")) {
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
        for (String id : cl.get("policy", "round-robin,least-connections").split(",")) {
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
