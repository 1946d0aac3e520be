package io.loadwise.dispatcher.adversarial;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.monitor.NodeMonitor;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.policy.PolicyRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The node monitor's readmission probe (issue 18, gaps item 4) against a raw node: a node that connect
 * failures hold out comes back only on a healthy answer, never on a 503 or a 404 of a server whose
 * application is still deploying, a broken status line, or an answer that never comes; and the probing
 * goes on after each of them. Round robin, so the probe is the only request the node gets.
 */
final class ReadmissionProbeCases {

    static final String GROUP = "readmission";
    private static final String SPEC = "18.4";
    private static final byte[] SERVING = reply("200 OK", "{\"timestamp\":0,\"metrics\":{}}");

    private ReadmissionProbeCases() {
    }

    static List<JavaCase> all() {
        return List.of(
                new JavaCase(GROUP, "503-while-the-application-deploys-is-not-readmitted-200-is", SPEC,
                        ctx -> heldOutUntilServing(ctx, reply("503 Service Unavailable", "deploying"), false)),
                new JavaCase(GROUP, "404-after-the-agent-answered-is-not-readmitted", SPEC,
                        ctx -> heldOutUntilServing(ctx, reply("404 Not Found", "no such context"), true)),
                new JavaCase(GROUP, "broken-status-line-is-not-readmitted", SPEC,
                        ctx -> heldOutUntilServing(ctx, "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n"
                                .getBytes(StandardCharsets.ISO_8859_1), false)),
                new JavaCase(GROUP, "no-answer-is-not-readmitted-and-probing-goes-on", SPEC,
                        ctx -> heldOutUntilServing(ctx, null, false)));
    }

    private static byte[] reply(String status, String body) {
        return ("HTTP/1.1 " + status + "\r\nContent-Type: text/plain\r\nContent-Length: " + body.length() + "\r\n\r\n"
                + body).getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * Holds the node out while it answers {@code unhealthy} ({@code null}: accepts and never answers) for two
     * probes, then lets it serve and expects it back at the next probe.
     *
     * @param agentAnsweredFirst the agent answered once before the node was held out
     */
    private static void heldOutUntilServing(CaseContext ctx, byte[] unhealthy, boolean agentAnsweredFirst)
            throws Exception {
        AtomicReference<byte[]> answer = new AtomicReference<>(agentAnsweredFirst ? SERVING : unhealthy);
        RawNode node = ctx.node((request, out) -> {
            byte[] bytes = answer.get();
            if (bytes == null) {
                return NodeScript.After.STALL;
            }
            out.write(bytes);
            out.flush();
            return NodeScript.After.CLOSE;
        });
        ClusterConfig config = ClusterConfig.builder().name("probe").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").nodes(List.of(new NodeConfig("n", node.address(), 1, true, null, null)))
                .panicThresholdPercent(0) // one node held out is 0 % usable: panic would pick it, accepting as it is
                .build();
        VirtualCluster cluster = new VirtualCluster(config, PolicyRegistry.load(), System::nanoTime);
        NodeMonitor monitor = ctx.register(new NodeMonitor(Map.of()));
        monitor.watch(cluster);
        NodeState state = cluster.node("n");
        if (agentAnsweredFirst) {
            state.markConnectFailure(60_000);
            Await.until("readmitted on the agent's answer", Duration.ofSeconds(4), () -> !state.connectDown());
            answer.set(unhealthy);
        }
        // as the proxy does; after an agent answered, the node stays out past this window until it is ready
        state.markConnectFailure(agentAnsweredFirst ? 1_200 : 60_000);
        int asked = node.requests().size();
        Await.until("two probes of the held-out node", Duration.ofSeconds(6), () -> node.requests().size() >= asked + 2);
        assertTrue(!state.usable(), "held out while it answers what it does");
        assertTrue(!agentAnsweredFirst || state.awaitingReadiness(), "past its retry interval: until it is ready");
        answer.set(SERVING);
        Await.until("readmitted once it serves", Duration.ofSeconds(4), state::usable);
    }
}
