package io.loadwise.bench.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.NodeView;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/**
 * Every policy of {@link PolicySelectionBenchmark} builds and picks at every node count its {@code @Param}
 * lists, 1,000 included (issue 35's scale row), without running JMH: the full suite is for a quiet machine.
 */
class PolicySelectionAtScaleTest {

    private static String[] param(Class<?> type, String field) throws NoSuchFieldException {
        return type.getField(field).getAnnotation(Param.class).value();
    }

    @Test
    void bothBenchmarksMeasureAThousandNodes() throws Exception {
        assertArrayEquals(new String[] {"3", "16", "100", "1000"}, param(PolicySelectionBenchmark.class, "nodes"));
        assertArrayEquals(new String[] {"3", "16", "100", "1000"}, param(NodeScanBaselineBenchmark.class, "nodes"));
    }

    @Test
    void everyPolicyPicksAmongAThousandNodes() throws Exception {
        for (String policy : param(PolicySelectionBenchmark.class, "policy")) {
            PolicySelectionBenchmark bench = new PolicySelectionBenchmark();
            bench.policy = policy;
            bench.nodes = 1000;
            bench.buildPicker();
            Set<String> picked = new HashSet<>();
            for (int i = 0; i < 5_000; i++) {
                NodeView node = bench.pick();
                assertNotNull(node, policy + " picked nothing at 1,000 nodes");
                picked.add(node.name());
            }
            if (Set.of("random", "round-robin", "static-wrr").contains(policy)) {
                assertTrue(picked.size() > 900, policy + " spread over " + picked.size() + " of 1,000 nodes");
            }
        }
        NodeScanBaselineBenchmark scan = new NodeScanBaselineBenchmark();
        scan.nodes = 1000;
        scan.buildNodes();
        assertNotNull(scan.bareMinScan());
        assertTrue(Arrays.asList(param(PolicySelectionBenchmark.class, "policy")).contains("adaptive"));
    }
}
