package io.loadwise.dispatcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.policy.PolicyRegistry;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link VirtualCluster#pickInDomain}: the cluster's policy among the other usable nodes of a node's replication
 * domain, nothing for a node in no domain or a domain with no other usable node, rebuilt when a reload moves a node
 * to another domain, and without allocating.
 */
class DomainPickersTest {

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    private static ClusterConfig config(String policy, String... domains) {
        List<NodeConfig> nodes = new ArrayList<>();
        for (int i = 0; i < domains.length; i++) {
            nodes.add(new NodeConfig("n" + (i + 1), "127.0.0.1:" + (9001 + i), null, null, null, null)
                    .withDomain(domains[i]));
        }
        return ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0").policy(policy).nodes(nodes)
                .build();
    }

    private VirtualCluster cluster(String policy, String... domains) {
        return new VirtualCluster(config(policy, domains), PolicyRegistry.load(), clock::get);
    }

    private static List<String> partners(VirtualCluster cluster, String of, int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            NodeState partner = cluster.pickInDomain(cluster.node(of), "/");
            names.add(partner == null ? null : partner.name());
        }
        return names;
    }

    @Test
    void thePolicyPicksAmongTheOtherNodesOfTheDomain() {
        VirtualCluster cluster = cluster("round-robin", "east", "east", "east", "west", "west", null);
        List<String> east = partners(cluster, "n1", 6);
        assertEquals(3, east.stream().filter("n2"::equals).count(), east.toString());
        assertEquals(3, east.stream().filter("n3"::equals).count(), east.toString());
        assertEquals(List.of("n5", "n5"), partners(cluster, "n4", 2));
        assertEquals(java.util.Arrays.asList(null, null), partners(cluster, "n6", 2), "no domain: no partner");
        assertEquals(2, cluster.node("n5").counters().read().selections(), "a partner pick counts as a selection");
    }

    @Test
    void onlyUsableNodesArePartners() {
        VirtualCluster cluster = cluster("least-connections", "east", "east", "west", "west");
        cluster.setDrain(cluster.node("n2"), DrainMode.IMMEDIATE, 0, 0);
        assertNull(cluster.pickInDomain(cluster.node("n1"), "/"), "the only partner drains");
        cluster.setDrain(cluster.node("n2"), DrainMode.NONE, 0, 0);
        assertEquals("n2", cluster.pickInDomain(cluster.node("n1"), "/").name());
        cluster.setEnabled(cluster.node("n4"), false);
        assertNull(cluster.pickInDomain(cluster.node("n3"), "/"), "the only partner is disabled");
    }

    @Test
    void aReloadThatMovesANodeToAnotherDomainTakesEffect() {
        VirtualCluster cluster = cluster("round-robin", "east", "east", "west", "west");
        assertEquals(List.of("n2"), partners(cluster, "n1", 1));
        cluster.updateConfig(config("round-robin", "east", "west", "west", "east"));
        assertEquals(List.of("n4", "n4"), partners(cluster, "n1", 2));
        cluster.updateConfig(config("round-robin", null, "west", "west", "east"));
        assertEquals(java.util.Arrays.asList((String) null), partners(cluster, "n1", 1));
        assertNull(cluster.pickInDomain(cluster.node("n4"), "/"), "east has one node left");
    }

    @Test
    void partnerPicksDoNotAllocate() {
        VirtualCluster cluster = cluster("least-connections", "east", "east", "east", "west", "west", null);
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        NodeState[] pinned = {cluster.node("n1"), cluster.node("n4"), cluster.node("n6"), cluster.node("n2")};
        for (int i = 0; i < 20_000; i++) {
            cluster.pickInDomain(pinned[i & 3], "/cart");
        }
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 100_000; i++) {
            cluster.pickInDomain(pinned[i & 3], "/cart");
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertTrue(allocated < 4096, "allocated " + allocated + " bytes in 100000 partner picks");
    }
}
