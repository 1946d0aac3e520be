package io.loadwise.dispatcher.config;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The validator's checks of priority groups, the panic threshold and replication domains (issue 32), apart from
 * the others.
 */
final class GroupChecks {

    /** F5 numbers priority groups 0..65535 (the other way round: there, higher is preferred). */
    static final int MAX_PRIORITY = 65_535;
    /** More usable nodes than any cluster has would only mean "every group always active". */
    static final int MAX_MIN_ACTIVE = 10_000;

    /** A domain name: what a node name may be, so it fits a label, a file name and a JVM system property alike. */
    private static final Pattern DOMAIN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

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

    /** {@code domain}: 1 to 64 of letters, digits, '.', '_' and '-', starting with a letter or digit; HTTP only. */
    static void domain(String at, Mode mode, String domain, List<String> errors) {
        if (domain == null) {
            return;
        }
        if (domain.isBlank()) {
            errors.add(at + ": must not be blank (leave it out for a node in no domain)");
        } else if (domain.length() > NodeConfig.MAX_DOMAIN_LENGTH) {
            errors.add(at + ": " + domain.length() + " characters, at most " + NodeConfig.MAX_DOMAIN_LENGTH);
        } else if (!DOMAIN.matcher(domain).matches()) {
            errors.add(at + ": '" + domain + "' may contain only letters, digits, '.', '_' and '-', and must start"
                    + " with a letter or digit");
        }
        if (mode == Mode.TCP) {
            errors.add(at + ": only for http clusters (a domain steers requests pinned by session affinity)");
        }
    }
}
