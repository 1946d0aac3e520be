package io.loadwise.dispatcher.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.MBeanServerConnection;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MBeans as JConsole uses them: over a real JMX connector (RMI on loopback) to a dispatcher with real
 * sockets, a JDK HTTP server as its nodes. Attributes read the live state; the levers change it with the REST
 * API's checks and are persisted to the file; beans follow clusters and nodes that come and go.
 */
class JmxExportTest {

    private static final String TOKEN = "test-token-0123456789";

    @TempDir
    Path dir;

    private Transport transport;
    private HttpServer node;
    private Dispatcher dispatcher;
    private MBeanServer server;
    private JmxExport export;
    private JMXConnectorServer connectorServer;
    private JMXConnector connector;
    private MBeanServerConnection remote;
    private Path file;
    private int port;

    @BeforeEach
    void start() throws Exception {
        node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/", exchange -> {
            byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().contains("loadwise-agent") ? 404 : 200,
                    body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        node.start();
        String address = "127.0.0.1:" + node.getAddress().getPort();
        file = dir.resolve("loadwise.json");
        Files.writeString(file, ("{'clusters':[{'name':'web','mode':'http','listen':'127.0.0.1:0','policy':'round-robin',"
                + "'nodes':[{'name':'a','address':'" + address + "'},{'name':'b','address':'" + address + "'}]}]}")
                .replace('\'', '"'));
        transport = new Transport(1);
        ConfigStore store = new ConfigStore(file);
        dispatcher = new Dispatcher(store.load(), store, PolicyRegistry.load(), transport, new ModeListenerFactory());
        dispatcher.start(TOKEN, false);
        port = dispatcher.boundAddress("web").getPort();

        server = MBeanServerFactory.newMBeanServer();
        export = JmxExport.start(server, dispatcher, "9.9.9", dispatcher::inFlight, false);
        connectorServer = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi://127.0.0.1"), null, server);
        connectorServer.start();
        connector = JMXConnectorFactory.connect(connectorServer.getAddress());
        remote = connector.getMBeanServerConnection();
    }

    @AfterEach
    void stop() throws Exception {
        if (connector != null) {
            connector.close();
        }
        if (connectorServer != null) {
            connectorServer.stop();
        }
        if (export != null) {
            export.close();
        }
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        node.stop(0);
    }

    private NodeMXBean nodeBean(String name) throws Exception {
        return JMX.newMXBeanProxy(remote, new ObjectName("io.loadwise:type=Node,cluster=web,name=" + name),
                NodeMXBean.class);
    }

    private ClusterMXBean clusterBean() throws Exception {
        return JMX.newMXBeanProxy(remote, new ObjectName("io.loadwise:type=Cluster,name=web"), ClusterMXBean.class);
    }

    private Set<ObjectName> names() throws Exception {
        return remote.queryNames(new ObjectName("io.loadwise:*"), null);
    }

    /** The message a JMX client shows for a refused operation. */
    private static String refusal(Runnable operation) {
        RuntimeException thrown = assertThrows(RuntimeException.class, operation::run);
        Throwable cause = thrown instanceof RuntimeMBeanException m ? m.getTargetException() : thrown;
        while (cause.getCause() != null && !(cause instanceof IllegalArgumentException)) {
            cause = cause.getCause();
        }
        return cause.getMessage();
    }

    @Test
    void oneBeanForTheDispatcherEachClusterAndEachNode() throws Exception {
        assertEquals(Set.of(new ObjectName("io.loadwise:type=Dispatcher"),
                new ObjectName("io.loadwise:type=Cluster,name=web"),
                new ObjectName("io.loadwise:type=Node,cluster=web,name=a"),
                new ObjectName("io.loadwise:type=Node,cluster=web,name=b")), names());
        DispatcherMXBean top = JMX.newMXBeanProxy(remote, new ObjectName("io.loadwise:type=Dispatcher"),
                DispatcherMXBean.class);
        assertEquals("9.9.9", top.getVersion());
        assertEquals(1, top.getClusterCount());
        ClusterMXBean web = clusterBean();
        assertEquals("http", web.getMode());
        assertEquals("round-robin", web.getPolicy());
        assertEquals(2, web.getNodeCount());
        NodeMXBean a = nodeBean("a");
        assertEquals("127.0.0.1:" + node.getAddress().getPort(), a.getAddress());
        assertTrue(a.isEnabled());
        assertEquals("none", a.getDrainMode());
    }

    @Test
    void countersFollowTheTraffic() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> answer = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/x")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode());
        }
        assertEquals(4, clusterBean().getCompletedRequests());
        assertEquals(4, nodeBean("a").getCompletedRequests() + nodeBean("b").getCompletedRequests());
        assertEquals(2, nodeBean("a").getCompletedRequests(), "round robin over two nodes");
        assertEquals(0, clusterBean().getFailedRequests());
    }

    @Test
    void leversChangeTheNodeWithTheApisChecksAndArePersisted() throws Exception {
        NodeMXBean a = nodeBean("a");
        a.disable();
        assertFalse(dispatcher.clusterStatus("web").node("a").enabled());
        assertEquals(1, clusterBean().getNodesInService());
        a.enable();
        assertTrue(dispatcher.clusterStatus("web").node("a").enabled());

        a.setWeight(7);
        assertEquals(7, dispatcher.clusterStatus("web").node("a").weight());
        assertTrue(Files.readString(file).matches("(?s).*\"weight\"\\s*:\\s*7.*"),
                "persisted as through the API: " + Files.readString(file));
        String badWeight = refusal(() -> a.setWeight(-1));
        assertTrue(badWeight.contains("weight"), badWeight);
        assertEquals(7, a.getWeight(), "a refused weight changes nothing");

        a.drain("sessions");
        assertEquals(DrainMode.SESSIONS, dispatcher.clusterStatus("web").node("a").drain().mode());
        assertEquals("sessions", a.getDrainMode());
        String badMode = refusal(() -> a.drain("later"));
        assertEquals("drain mode: expected sessions, immediate or none, got 'later'", badMode);
        a.drain("none");
        assertEquals("none", a.getDrainMode());
    }

    @Test
    void thePolicySwitchesLiveAndAnUnknownOneIsRefused() throws Exception {
        ClusterMXBean web = clusterBean();
        web.setPolicy("least-connections");
        assertEquals("least-connections", dispatcher.clusterStatus("web").policy().id());
        String refused = refusal(() -> web.setPolicy("no-such-policy"));
        assertTrue(refused.contains("no-such-policy"), refused);
        assertEquals("least-connections", web.getPolicy());
    }

    @Test
    void beansFollowClustersAndNodesThatComeAndGo() throws Exception {
        String address = "127.0.0.1:" + node.getAddress().getPort();
        Files.writeString(file, ("{'clusters':[{'name':'web','mode':'http','listen':'127.0.0.1:0','policy':'round-robin',"
                + "'nodes':[{'name':'a','address':'" + address + "'}]},"
                + "{'name':'api','mode':'tcp','listen':'127.0.0.1:0','policy':'round-robin',"
                + "'nodes':[{'name':'x','address':'" + address + "'}]}]}").replace('\'', '"'));
        DispatcherMXBean top = JMX.newMXBeanProxy(remote, new ObjectName("io.loadwise:type=Dispatcher"),
                DispatcherMXBean.class);
        String summary = top.reload();
        assertTrue(summary.contains("api"), summary);
        assertEquals(Set.of(new ObjectName("io.loadwise:type=Dispatcher"),
                new ObjectName("io.loadwise:type=Cluster,name=web"),
                new ObjectName("io.loadwise:type=Node,cluster=web,name=a"),
                new ObjectName("io.loadwise:type=Cluster,name=api"),
                new ObjectName("io.loadwise:type=Node,cluster=api,name=x")), names(), "b went, api came");
        assertEquals("tcp", JMX.newMXBeanProxy(remote, new ObjectName("io.loadwise:type=Cluster,name=api"),
                ClusterMXBean.class).getMode());

        Files.writeString(file, "{ not json");
        String refused = refusal(top::reload);
        assertTrue(refused.startsWith("nothing changed: "), refused);
        assertEquals(5, export.size(), "a failed reload leaves the beans as they were");

        dispatcher.deleteCluster("api");
        export.reconcile();
        assertEquals(3, names().size());
        export.close();
        assertEquals(Set.of(), names(), "close removes every bean it registered");
    }

    @Test
    void offUnlessTheJvmsJmxIsOnOrTheSwitchSaysSo() {
        Properties none = new Properties();
        assertFalse(JmxExport.wanted(none));
        Properties remoteJmx = new Properties();
        remoteJmx.setProperty("com.sun.management.jmxremote.port", "9010");
        assertTrue(JmxExport.wanted(remoteJmx));
        remoteJmx.setProperty(JmxExport.SWITCH, "false");
        assertFalse(JmxExport.wanted(remoteJmx), "-Dloadwise.jmx=false wins");
        Properties forced = new Properties();
        forced.setProperty(JmxExport.SWITCH, "true");
        assertTrue(JmxExport.wanted(forced));
    }

    @Test
    void namesWithReservedCharactersAreQuoted() throws Exception {
        assertEquals(new ObjectName("io.loadwise:type=Node,cluster=web,name=a"),
                JmxExport.name("type", "Node", "cluster", "web", "name", "a"));
        ObjectName odd = JmxExport.name("type", "Cluster", "name", "a,b=c");
        assertEquals("a,b=c", ObjectName.unquote(odd.getKeyProperty("name")));
    }
}
