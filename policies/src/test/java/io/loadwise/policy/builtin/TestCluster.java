package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/** Nodes named A, B, C... plus a policy from the registry and a seeded environment. */
final class TestCluster {

    static final PolicyRegistry REGISTRY = PolicyRegistry.load();

    final TestNode[] nodes;
    final ClusterSnapshot snapshot;
    final LoadBalancingPolicy policy;
    PolicyOptions options = PolicyOptions.EMPTY;
    long seed = 42;
    /** The environment's clock in nanoseconds: stands still unless a test moves it. */
    final AtomicLong clock = new AtomicLong();

    private TestCluster(String policyId, int[] weights) {
        this.policy = REGISTRY.get(policyId);
        this.nodes = new TestNode[weights.length];
        for (int i = 0; i < weights.length; i++) {
            nodes[i] = new TestNode(i, String.valueOf((char) ('A' + i)), weights[i]);
        }
        this.snapshot = new ClusterSnapshot("test", Arrays.asList(nodes));
    }

    /** A cluster of nodes with these weights. */
    static TestCluster weighted(String policyId, int... weights) {
        return new TestCluster(policyId, weights);
    }

    /** A cluster of {@code size} nodes of weight 1. */
    static TestCluster of(String policyId, int size) {
        int[] weights = new int[size];
        Arrays.fill(weights, 1);
        return new TestCluster(policyId, weights);
    }

    TestCluster options(Map<String, ? extends Number> values) {
        options = PolicyOptions.of(values);
        List<String> errors = policy.validate(options);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(errors.toString());
        }
        return this;
    }

    TestNode node(char name) {
        return nodes[name - 'A'];
    }

    PolicyEnvironment env() {
        return new PolicyEnvironment(new Random(seed), clock::get, options);
    }

    /**
     * A picker over nodes that have reported their current readings steadily: built after each node's
     * sample was seen {@link ReadingFilter#READINGS_TO_EXCLUDE} times (copies, as an agent sends a new sample with the
     * same values), so that the filtered readings ({@link ReadingFilter}) equal the raw ones and can
     * exclude a node. {@link #firstPicker()} is the build that has seen each sample once.
     */
    Picker picker() {
        Picker picker = firstPicker();
        for (int reading = 1; reading < ReadingFilter.READINGS_TO_EXCLUDE; reading++) {
            for (TestNode node : nodes) {
                node.resend();
            }
            picker = rebuild(picker);
        }
        return picker;
    }

    /** The first picker: every node's sample seen once. */
    Picker firstPicker() {
        return policy.newPicker(snapshot, null, env());
    }

    Picker rebuild(Picker previous) {
        return policy.newPicker(snapshot, previous, env());
    }

    /** Names of {@code count} successive picks, e.g. "ABCAB"; '-' for null. */
    static String sequence(Picker picker, int count) {
        return sequence(picker, count, null);
    }

    static String sequence(Picker picker, int count, NodeView avoid) {
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < count; i++) {
            NodeView node = picker.pick(avoid);
            names.append(node == null ? "-" : node.name());
        }
        return names.toString();
    }

    /** Picks {@code count} times, opening a connection on each picked node as the dispatcher would. */
    static String sequenceOpening(Picker picker, int count) {
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < count; i++) {
            TestNode node = (TestNode) picker.pick(null);
            node.connectionOpened();
            names.append(node.name());
        }
        return names.toString();
    }

    /** How often each node name occurs in a sequence, indexed A=0. */
    static int[] counts(String sequence, int size) {
        int[] counts = new int[size];
        for (int i = 0; i < sequence.length(); i++) {
            char c = sequence.charAt(i);
            if (c != '-') {
                counts[c - 'A']++;
            }
        }
        return counts;
    }
}
