package io.loadwise.agent.register;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * What the application server says about itself, for a registration that does not spell it out: the session
 * route (Tomcat's Engine {@code jvmRoute}, WildFly Undertow's {@code instance-id} or, undefined, the
 * {@code jboss.node.name} it defaults to, Liberty's {@code <httpSession cloneId>} from its server configuration,
 * which no MBean holds, else the {@code jvmRoute} system property) and the HTTP port (Tomcat's HTTP connector,
 * WildFly's {@code http} socket binding, Liberty's {@code defaultHttpEndpoint}), all over JMX but Liberty's route.
 */
public interface ServerFacts {

    /** The session route, or {@code null}. */
    String route();

    /** The HTTP port, or 0 when unknown. */
    int httpPort();

    /** The address the dispatcher reaches this host at. */
    String host();

    /** Facts read from the platform MBean server. */
    static ServerFacts fromJmx() {
        MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
        return new ServerFacts() {
            @Override
            public String route() {
                String route = attribute(mbeans, "Catalina:type=Engine", "jvmRoute");
                if (route == null) {
                    route = attribute(mbeans, "jboss.as:subsystem=undertow", "instanceId");
                }
                if (route == null && mbeans.isRegistered(objectName("jboss.as:subsystem=undertow"))) {
                    // Undertow's instance-id left undefined defaults to ${jboss.node.name}
                    route = System.getProperty("jboss.node.name");
                }
                if (route == null) {
                    Path libertyServer = libertyServerDir(mbeans);
                    if (libertyServer != null) {
                        route = LibertyServerConfig.cloneId(libertyServer);
                    }
                }
                if (route == null) {
                    route = System.getProperty("jvmRoute");
                }
                return route == null || route.isBlank() ? null : route.strip();
            }

            @Override
            public int httpPort() {
                try {
                    Set<ObjectName> connectors = mbeans.queryNames(new ObjectName("Catalina:type=Connector,*"), null);
                    for (ObjectName connector : connectors) {
                        Object scheme = mbeans.getAttribute(connector, "scheme");
                        Object port = mbeans.getAttribute(connector, "localPort");
                        if ("http".equals(scheme) && port instanceof Integer p && p > 0) {
                            return p;
                        }
                    }
                } catch (Exception e) {
                    // not Tomcat, or not readable: try the next server kind
                }
                String bound = attribute(mbeans,
                        "jboss.as:socket-binding-group=standard-sockets,socket-binding=http", "boundPort");
                if (bound == null) {
                    bound = attribute(mbeans, LIBERTY_HTTP_ENDPOINT, "Port");
                }
                try {
                    return bound == null ? 0 : Integer.parseInt(bound);
                } catch (NumberFormatException e) {
                    return 0;
                }
            }

            @Override
            public String host() {
                try {
                    return InetAddress.getLocalHost().getHostAddress();
                } catch (UnknownHostException e) {
                    return InetAddress.getLoopbackAddress().getHostAddress();
                }
            }
        };
    }

    /** Liberty's default HTTP endpoint (the channel framework's EndpointInfo MBean): its bound port. */
    String LIBERTY_HTTP_ENDPOINT = "WebSphere:feature=channelfw,type=endpoint,name=defaultHttpEndpoint";
    /** Liberty's kernel: its user directory and server name locate the server's configuration. */
    String LIBERTY_SERVER_INFO = "WebSphere:feature=kernel,name=ServerInfo";

    /**
     * Liberty's server configuration directory: {@code server.config.dir} as Liberty's launcher sets it, else
     * the user directory and server name its kernel MBean tells; {@code null} when this is not Liberty.
     */
    private static Path libertyServerDir(MBeanServer mbeans) {
        if (!mbeans.isRegistered(objectName(LIBERTY_SERVER_INFO))) {
            return null;
        }
        String configDir = System.getProperty("server.config.dir");
        if (configDir != null && !configDir.isBlank()) {
            return Path.of(configDir);
        }
        String userDir = attribute(mbeans, LIBERTY_SERVER_INFO, "UserDirectory");
        String name = attribute(mbeans, LIBERTY_SERVER_INFO, "Name");
        return userDir == null || name == null ? null : Path.of(userDir, "servers", name);
    }

    private static ObjectName objectName(String name) {
        try {
            return new ObjectName(name);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalArgumentException(name, e);
        }
    }

    private static String attribute(MBeanServer mbeans, String name, String attribute) {
        try {
            Object value = mbeans.getAttribute(new ObjectName(name), attribute);
            return value == null ? null : value.toString();
        } catch (Exception e) {
            return null;
        }
    }
}
