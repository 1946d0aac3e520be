package io.loadwise.policy.builtin;

import static io.loadwise.policy.builtin.TestCluster.sequence;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyInput;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LeastSessionsPolicyTest {

    private static final String SESSIONS = "AMX_SESSIONS_ACT";

    @Test
    void picksFewestReportedSessions() {
        TestCluster cluster = TestCluster.of("least-sessions", 3);
        cluster.node('A').metrics(SESSIONS, 30);
        cluster.node('B').metrics(SESSIONS, 10);
        cluster.node('C').metrics(SESSIONS, 20);
        assertEquals(Set.of(PolicyInput.AGENT_METRICS), cluster.policy.inputs());
        assertEquals("BBB", sequence(cluster.picker(), 3));
    }

    @Test
    void sampleValuesAreFrozenUntilThePickerIsRebuilt() {
        TestCluster cluster = TestCluster.of("least-sessions", 2);
        cluster.node('A').metrics(SESSIONS, 5);
        cluster.node('B').metrics(SESSIONS, 9);
        Picker picker = cluster.picker();
        cluster.node('A').metrics(SESSIONS, 50);
        assertSame(cluster.node('A'), picker.pick(null));
        assertSame(cluster.node('B'), cluster.rebuild(picker).pick(null));
    }

    @Test
    void nodesWithoutFreshValueTakeOnePickInNEachByLeastConnections() {
        TestCluster cluster = TestCluster.of("least-sessions", 4);
        cluster.node('A').metrics(SESSIONS, 500);          // known, busy
        cluster.node('B');                                  // no sample (missing or stale)
        cluster.node('C').metrics("OS_CPU_USED%", 10);      // sample without the metric
        cluster.node('D').active(3);                        // no sample, more connections than B and C
        assertEquals("BCBA", sequence(cluster.picker(), 4), "three unknown turns in four, B and C tie at 0");
        cluster.node('B').active(4);
        cluster.node('C').active(4);
        assertEquals("DDDA", sequence(cluster.picker(), 4), "fewest connections among unknown nodes");
        cluster.node('A').healthy(false);
        assertEquals("DDDD", sequence(cluster.picker(), 4), "the known node's turn goes to the unknown ones");
    }
}
