package io.loadwise.agent.register;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * What the application server says about itself over JMX, for a registration that does not spell it out: the
 * session route (Tomcat's Engine {@code jvmRoute}, WildFly Undertow's {@code instance-id} or, undefined, the
 * {@code jboss.node.name} it defaults to, else the {@code jvmRoute} system property) and the HTTP port (Tomcat's HTTP connector, WildFly's {@code http}
 * socket binding).
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
