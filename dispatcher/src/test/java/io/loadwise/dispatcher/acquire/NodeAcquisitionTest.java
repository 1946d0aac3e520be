package io.loadwise.dispatcher.acquire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.acquire.NodeAcquisition.Phase;
import io.loadwise.dispatcher.acquire.Outcome.Refusal;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.OutcomeSink;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.policy.PolicyRegistry;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeAcquisition} on embedded channels: the requester's loop is an {@link EmbeddedChannel}'s, node
 * connections are embedded channels that connect, are refused or hang as the test says, and the test runs
 * the loop's tasks and moves its clock itself.
 */
class NodeAcquisitionTest {

    private static final PolicyRegistry POLICIES = PolicyRegistry.load();

    private final List<EmbeddedChannel> channels = new ArrayList<>();
    private final List<Outcome> outcomes = new ArrayList<>();
    private final List<NodeState> gatewayFailures = new ArrayList<>();
    private final EmbeddedChannel loop = open(new EmbeddedChannel());
    private final EmbeddedConnector connector = new EmbeddedConnector();
    private int refreshes;
    private VirtualCluster cluster;

    @AfterEach
    void close() {
        for (EmbeddedChannel channel : channels) {
            channel.finishAndReleaseAll();
        }
    }

    private EmbeddedChannel open(EmbeddedChannel channel) {
        channels.add(channel);
        channel.freezeTime();
        return channel;
    }

    /** An HTTP cluster of nodes a and b (round robin), each with {@code maxConnections}, plus {@code settings}. */
    private VirtualCluster cluster(Integer maxConnections, Consumer<ClusterConfig.Builder> settings) {
        ClusterConfig.Builder config = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").unhealthyRetryMs(60_000)
                .nodes(List.of(new NodeConfig("a", "127.0.0.1:1", null, null, null, null, null, maxConnections),
                        new NodeConfig("b", "127.0.0.1:2", null, null, null, null, null, maxConnections)));
        settings.accept(config);
        cluster = new VirtualCluster(config.build(), POLICIES, System::nanoTime);
        cluster.setRefresher(c -> refreshes++);
        cluster.setOutcomes(new OutcomeSink() {
            @Override
            public void onResponse(NodeState node, int status) {
            }

            @Override
            public void onFailedAnswer(NodeState node) {
            }

            @Override
            public void onGatewayFailure(NodeState node) {
                gatewayFailures.add(node);
            }
        });
        return cluster;
    }

    private NodeAcquisition acquisition(List<Long> queuedUntil) {
        return new NodeAcquisition(cluster, loop.eventLoop(), target -> cluster.pick(null, target), connector,
                outcomes::add, queuedUntil::add);
    }

    private Outcome.Connected connected(int i) {
        return assertInstanceOf(Outcome.Connected.class, outcomes.get(i));
    }

    @Test
    void aFreeNodeIsConnectedAtOnceAndItsSlotHeldUntilFinish() {
        cluster(1, c -> { });
        NodeAcquisition acquisition = acquisition(new ArrayList<>());
        acquisition.start("/x");
        Outcome.Connected first = connected(0);
        assertEquals(Phase.CONNECTED, acquisition.phase());
        assertSame(first.node(), connector.nodeOf(first.channel()));
        assertTrue(!first.node().admitted(), "its one slot is taken");
        acquisition.finish();
        assertTrue(first.node().admitted(), "given back");
        assertEquals(Phase.IDLE, acquisition.phase());
    }

    @Test
    void aRequestThatFindsEveryNodeFullIsQueuedThenPickedWhenASlotFrees() {
        cluster(1, c -> c.queueTimeoutMs(5_000));
        NodeAcquisition onA = acquisition(new ArrayList<>());
        NodeAcquisition onB = acquisition(new ArrayList<>());
        onA.start("/1");
        onB.start("/2");
        assertEquals(2, outcomes.size(), "one request on each node");
        List<Long> deadlines = new ArrayList<>();
        NodeAcquisition third = acquisition(deadlines);
        third.start("/3");
        assertEquals(Phase.QUEUED, third.phase());
        assertEquals(2, outcomes.size(), "no outcome while it waits");
        assertEquals(List.of(loop.eventLoop().ticker().nanoTime() + TimeUnit.SECONDS.toNanos(5)), deadlines,
                "the owner is told when the wait must end");
        assertEquals(1, cluster.queue().length());

        NodeState freed = connected(0).node();
        onA.finish(); // the slot comes free: the queue wakes the third on its own loop
        assertEquals(2, outcomes.size(), "picked on the requester's loop, not the caller's");
        loop.runPendingTasks();
        assertSame(freed, connected(2).node());
        assertEquals(Phase.CONNECTED, third.phase());
        assertEquals(0, cluster.queue().length());
    }

    @Test
    void aFailedConnectMarksTheNodeReportsItAsksForAPickerAndTriesTheOtherNode() {
        cluster(null, c -> { });
        connector.refuse.add("a");
        acquisition(new ArrayList<>()).start("/x");
        NodeState a = cluster.node("a");
        assertSame(cluster.node("b"), connected(0).node(), "the other node");
        assertTrue(a.connectDown(), "out of selection for unhealthyRetryMs");
        assertEquals(List.of(a), gatewayFailures, "reported to outlier detection");
        assertEquals(1, refreshes, "a new picker asked for, off the loop");
    }

    @Test
    void connectsFailingOnEveryNodeEndInOneRefusal() {
        cluster(null, c -> c.connectAttempts(2));
        connector.refuse.add("a");
        connector.refuse.add("b");
        acquisition(new ArrayList<>()).start("/x");
        assertEquals(1, outcomes.size(), "exactly one outcome");
        Outcome.Refused refused = assertInstanceOf(Outcome.Refused.class, outcomes.get(0));
        assertEquals(Refusal.UNREACHABLE, refused.refusal());
        assertEquals(2, gatewayFailures.size());
        assertEquals(2, refreshes);
    }

    @Test
    void aLateConnectionForARequestThatEndedIsGivenBack() {
        cluster(null, c -> { });
        connector.hang = true;
        NodeAcquisition acquisition = acquisition(new ArrayList<>());
        acquisition.start("/x");
        assertEquals(Phase.CONNECTING, acquisition.phase());
        acquisition.finish(); // the request timed out, or its client left
        ChannelPromise late = connector.pending.get(0);
        late.setSuccess();
        assertTrue(outcomes.isEmpty(), "nothing for a request that ended");
        assertTrue(!late.channel().isOpen(), "given back: closed, for this connector");
    }

    @Test
    void aRetryGoesToAnotherNodeOnceAndHoldsOneRetryOfTheBudget() {
        cluster(null, c -> { });
        NodeAcquisition acquisition = acquisition(new ArrayList<>());
        acquisition.start("/x");
        NodeState first = connected(0).node();
        NodeState next = acquisition.retryTarget(first);
        assertTrue(next != null && next != first);
        assertEquals(1, cluster.retryBudget().inProgress());
        acquisition.retry(next);
        assertSame(next, connected(1).node());
        assertNull(acquisition.retryTarget(next), "never a third node");
        acquisition.finish();
        assertEquals(0, cluster.retryBudget().inProgress(), "the retry is given back at the end");
    }

    /** Node connections as embedded channels: refused for the nodes named in {@link #refuse}, or left hanging. */
    private final class EmbeddedConnector implements NodeConnector {
        final Set<String> refuse = new HashSet<>();
        final List<ChannelPromise> pending = new ArrayList<>();
        boolean hang;
        private final List<NodeState> nodeOf = new ArrayList<>();
        private final List<Channel> opened = new ArrayList<>();

        @Override
        public void open(NodeState node, Waiter waiter) {
            EmbeddedChannel channel = NodeAcquisitionTest.this.open(new EmbeddedChannel());
            opened.add(channel);
            nodeOf.add(node);
            if (refuse.contains(node.name())) {
                channel.close();
                waiter.onBackendFailed(new ConnectException("Connection refused"));
            } else if (hang) {
                ChannelPromise promise = channel.newPromise();
                promise.addListener(f -> waiter.onBackendReady(channel));
                pending.add(promise);
            } else {
                waiter.onBackendReady(channel);
            }
        }

        @Override
        public void cancel(NodeState node, Waiter waiter) {
        }

        @Override
        public void giveBack(Channel channel) {
            channel.close();
        }

        @Override
        public NodeState nodeOf(Channel channel) {
            return nodeOf.get(opened.indexOf(channel));
        }
    }
}
