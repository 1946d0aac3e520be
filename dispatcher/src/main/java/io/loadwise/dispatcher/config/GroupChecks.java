package io.loadwise.dispatcher.config;

import java.util.List;

/** The validator's checks of priority groups and the panic threshold (issue 32), apart from the others. */
final class GroupChecks {

    /** F5 numbers priority groups 0..65535 (the other way round: there, higher is preferred). */
    static final int MAX_PRIORITY = 65_535;
    /** More usable nodes than any cluster has would only mean "every group always active". */
    static final int MAX_MIN_ACTIVE = 10_000;

    private GroupChecks() {
    }

    static void cluster(String at, ClusterConfig c, List<String> errors) {
        ConfigValidator.range(at + ".minActive", c.minActive(), 1, MAX_MIN_ACTIVE, errors);
        ConfigValidator.range(at + ".panicThresholdPercent", c.panicThresholdPercent(), 0, 100, errors);
    }

    static void node(String at, NodeConfig n, List<String> errors) {
        ConfigValidator.range(at + ".priority", n.priority(), 0, MAX_PRIORITY, errors);
        if (n.backupOrDefault() && n.priority() != null) {
            // Either would do, so neither is guessed: the operator says which group the node belongs to.
            errors.add(at + ".priority: a backup node has no priority (the backup group is below every priority)");
        }
    }
}
