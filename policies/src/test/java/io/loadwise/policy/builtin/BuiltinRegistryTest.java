package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.policy.UnknownPolicyException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class BuiltinRegistryTest {

    static final List<String> IDS = List.of("adaptive", "f5-dynamic-ratio", "fastest-response-time", "jvm-aware",
            "jvm-aware-classic", "least-connections", "least-loaded", "least-sessions", "orca-wrr", "p2c-least-request", "probed-response-time",
            "random", "round-robin", "rr-to-lc", "static-wrr", "weighted-least-connections");

    private final PolicyRegistry registry = PolicyRegistry.load();

    @Test
    void everyBuiltInPolicyIsRegisteredUnderItsId() {
        assertEquals(IDS, List.copyOf(registry.all().keySet()));
        registry.all().forEach((id, policy) -> {
            assertEquals(id, policy.id());
            assertFalse(policy.description().isBlank(), id);
        });
    }

    @Test
    void unknownIdIsAnErrorListingTheKnownIds() {
        UnknownPolicyException e = assertThrows(UnknownPolicyException.class, () -> registry.get("least-conn"));
        assertEquals("least-conn", e.id());
        assertEquals("unknown policy 'least-conn', known policies: " + String.join(", ", IDS), e.getMessage());
    }

    @Test
    void everyPolicyDeclaresWhatItReads() {
        Map<String, Set<PolicyInput>> declared = new TreeMap<>();
        for (LoadBalancingPolicy policy : registry.all().values()) {
            declared.put(policy.id(), policy.inputs());
        }
        Set<PolicyInput> agent = Set.of(PolicyInput.AGENT_METRICS);
        Set<PolicyInput> none = Set.of();
        assertEquals(Map.ofEntries(
                Map.entry("adaptive", Set.of(PolicyInput.AGENT_METRICS, PolicyInput.RESPONSE_TIMES)),
                Map.entry("f5-dynamic-ratio", agent),
                Map.entry("fastest-response-time", Set.of(PolicyInput.RESPONSE_TIMES)), Map.entry("jvm-aware", agent),
                Map.entry("jvm-aware-classic", agent), Map.entry("least-connections", none),
                Map.entry("least-loaded", agent), Map.entry("least-sessions", agent), Map.entry("orca-wrr", agent),
                Map.entry("p2c-least-request", none),
                Map.entry("probed-response-time", Set.of(PolicyInput.RESPONSE_TIMES)), Map.entry("random", none),
                Map.entry("round-robin", none), Map.entry("rr-to-lc", none), Map.entry("static-wrr", none),
                Map.entry("weighted-least-connections", none)), declared);
    }

    @Test
    void inputsAreOneImmutableSetPerPolicy() {
        for (LoadBalancingPolicy policy : registry.all().values()) {
            // The dispatcher asks once per piggybacked load report: no set may be built per call.
            assertSame(policy.inputs(), policy.inputs(), policy.id());
            assertThrows(UnsupportedOperationException.class, () -> policy.inputs().add(PolicyInput.RESPONSE_TIMES));
        }
    }

    @Test
    void policiesWithoutOptionsRejectAnyOption() {
        PolicyOptions stray = PolicyOptions.of(Map.of("heapThreshold", 80));
        for (LoadBalancingPolicy policy : registry.all().values()) {
            List<String> errors = policy.validate(stray);
            if (policy.id().startsWith("jvm-aware") || policy.id().equals("adaptive")) {
                assertTrue(errors.isEmpty(), errors.toString());
            } else {
                assertEquals(1, errors.size(), policy.id() + ": " + errors);
                assertTrue(errors.get(0).startsWith("policyOptions.heapThreshold: unknown option"), errors.get(0));
            }
        }
    }
}
