package io.loadwise.dispatcher.http.bench;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.dispatcher.http2.Http2Frontend;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs one Loadwise cluster in front of one node for {@code benchmarks/overhead/run-overhead.sh}:
 * {@code OverheadMain http|tcp LISTEN NODE [WORKERS]}. Prints {@code LISTENING host:port} once bound and
 * runs until killed. The TCP listener is looked up by name, so this runs on builds without it (it
 * then refuses {@code tcp} with a message).
 */
public final class OverheadMain {

    private OverheadMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: OverheadMain http|tcp LISTEN_HOST:PORT NODE_HOST:PORT [WORKER_THREADS]");
            System.exit(2);
        }
        Mode mode = Mode.of(args[0]);
        int workers = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        ClusterConfig config = ClusterConfig.builder().name("bench").mode(mode).listen(args[1]).policy("round-robin")
                .nodes(List.of(new NodeConfig("node1", args[2], null, null, null, null))).build();
        VirtualCluster cluster = new VirtualCluster(config, PolicyRegistry.load(), System::nanoTime);
        Transport transport = new Transport(workers);
        ClusterListener listener = mode == Mode.HTTP ? new HttpProxyServer(cluster, transport, null, Http2Frontend::new)
                : (ClusterListener) Class.forName("io.loadwise.dispatcher.tcp.TcpProxyServer")
                        .getConstructor(VirtualCluster.class, Transport.class).newInstance(cluster, transport);
        InetSocketAddress bound = listener.start();
        System.out.println("LISTENING " + bound.getHostString() + ":" + bound.getPort());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            listener.close();
            transport.close();
            stopped.countDown();
        }));
        stopped.await();
    }
}
