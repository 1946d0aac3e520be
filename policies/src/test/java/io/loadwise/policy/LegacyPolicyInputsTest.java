package io.loadwise.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Policies written before {@link LoadBalancingPolicy#inputs()} existed told the dispatcher they read
 * agent metrics by overriding {@code usesAgentMetrics()}. They must still compile and still be polled for.
 */
class LegacyPolicyInputsTest {

    @Test
    void aPolicyOverridingUsesAgentMetricsDeclaresAgentMetrics() {
        assertEquals(Set.of(PolicyInput.AGENT_METRICS), new LegacyAgentPolicy().inputs());
    }

    @Test
    void aPolicyOverridingNeitherDeclaresNothing() {
        assertEquals(Set.of(), new PlainPolicy().inputs());
    }

    /** What a third party wrote against the SPI before inputs(). */
    private static final class LegacyAgentPolicy extends PlainPolicy {
        @Override
        @SuppressWarnings("deprecation")
        public boolean usesAgentMetrics() {
            return true;
        }
    }

    private static class PlainPolicy implements LoadBalancingPolicy {
        @Override
        public String id() {
            return "plain";
        }

        @Override
        public String description() {
            return "first node";
        }

        @Override
        public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
            return avoid -> snapshot.node(0);
        }
    }
}
