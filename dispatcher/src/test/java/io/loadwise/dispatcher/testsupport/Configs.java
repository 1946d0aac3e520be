package io.loadwise.dispatcher.testsupport;

import io.loadwise.dispatcher.config.AdminConfig;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import java.util.ArrayList;
import java.util.List;

/** Small builders for test configurations: every listener on 127.0.0.1:0. */
public final class Configs {

    private Configs() {
    }

    public static List<NodeConfig> nodes(String... addresses) {
        List<NodeConfig> nodes = new ArrayList<>();
        for (int i = 0; i < addresses.length; i++) {
            nodes.add(new NodeConfig("n" + (i + 1), addresses[i], null, null, null, null));
        }
        return nodes;
    }

    public static ClusterConfig tcp(String name, String policy, List<NodeConfig> nodes) {
        return tcp(name, policy, null, null, nodes);
    }

    public static ClusterConfig tcp(String name, String policy, Integer idleTimeoutMs, Integer unhealthyRetryMs,
            List<NodeConfig> nodes) {
        return ClusterConfig.builder().name(name).mode(Mode.TCP).listen("127.0.0.1:0").policy(policy)
                .connectTimeoutMs(1_000).idleTimeoutMs(idleTimeoutMs).unhealthyRetryMs(unhealthyRetryMs).nodes(nodes)
                .build();
    }

    public static LoadwiseConfig config(ClusterConfig... clusters) {
        return new LoadwiseConfig(new AdminConfig("127.0.0.1:0", "test-token-0123456789", null), null, List.of(clusters));
    }

    /** A port nothing listens on: bound and closed again, so connects are refused. */
    public static String deadAddress() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return "127.0.0.1:" + s.getLocalPort();
        }
    }
}
