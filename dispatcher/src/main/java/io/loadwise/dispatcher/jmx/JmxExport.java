package io.loadwise.dispatcher.jmx;

import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatcher's MBeans: {@code io.loadwise:type=Dispatcher}, one {@code type=Cluster,name=C} per cluster and
 * one {@code type=Node,cluster=C,name=N} per node, each reading the control plane when asked (nothing is
 * copied or kept up to date in between). Clusters and nodes come and go (API, reload, registration): the set
 * of registered beans is made to match the current one every {@link #RECONCILE_SECONDS} seconds and after a
 * reload through JMX, so a removed node's bean goes with it and the bean count stays bounded by the state.
 *
 * <p>Off unless the JVM's own remote JMX is on ({@code -Dcom.sun.management.jmxremote...}), or
 * {@code -Dloadwise.jmx=true} asks for it ({@code false} keeps it off); {@link #wanted}.
 */
public final class JmxExport implements AutoCloseable {

    public static final String DOMAIN = "io.loadwise";
    /** {@code -Dloadwise.jmx=true|false}: on or off whatever the JVM's JMX settings. */
    public static final String SWITCH = "loadwise.jmx";
    static final long RECONCILE_SECONDS = 2;
    private static final Logger log = LoggerFactory.getLogger(JmxExport.class);

    private final MBeanServer server;
    private final ClusterControl control;
    /** What this export registered, by name, so that it removes exactly those. */
    private final Map<ObjectName, Object> registered = new HashMap<>();
    private final ScheduledExecutorService ticker;

    private JmxExport(MBeanServer server, ClusterControl control, boolean tick) {
        this.server = server;
        this.control = control;
        this.ticker = tick ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadwise-jmx");
            t.setDaemon(true);
            return t;
        }) : null;
    }

    /** Whether the MBeans are wanted, from the JVM's system properties. */
    public static boolean wanted(Properties system) {
        String forced = system.getProperty(SWITCH);
        if (forced != null) {
            return Boolean.parseBoolean(forced.trim());
        }
        return system.stringPropertyNames().stream().anyMatch(n -> n.startsWith("com.sun.management.jmxremote"));
    }

    /**
     * Registers the beans in {@code server} now and keeps them matching the clusters and nodes.
     *
     * @param tick whether a background thread reconciles every few seconds (tests call {@link #reconcile})
     */
    public static JmxExport start(MBeanServer server, ClusterControl control, String version, IntSupplier inFlight,
            boolean tick) {
        JmxExport export = new JmxExport(server, control, tick);
        export.register(name("type", "Dispatcher"), new DispatcherBean(control, version, inFlight, export::reconcile));
        export.reconcile();
        if (export.ticker != null) {
            export.ticker.scheduleWithFixedDelay(export::reconcileLogged, RECONCILE_SECONDS, RECONCILE_SECONDS,
                    TimeUnit.SECONDS);
        }
        log.info("JMX: MBeans under {} (clusters, nodes, the dispatcher)", DOMAIN);
        return export;
    }

    private void reconcileLogged() {
        try {
            reconcile();
        } catch (RuntimeException e) {
            log.warn("JMX: could not update the MBeans: {}", e.toString());
        }
    }

    /** Registers the beans of clusters and nodes that have none and removes those whose subject is gone. */
    public synchronized void reconcile() {
        // name -> {cluster} or {cluster, node}; a bean is made only for a name not registered yet
        Map<ObjectName, String[]> wanted = new HashMap<>();
        for (ClusterStatus cluster : control.clusterStatuses()) {
            wanted.put(name("type", "Cluster", "name", cluster.name()), new String[] {cluster.name()});
            for (NodeStatus node : cluster.nodes()) {
                wanted.put(name("type", "Node", "cluster", cluster.name(), "name", node.name()),
                        new String[] {cluster.name(), node.name()});
            }
        }
        for (ObjectName name : registered.keySet().toArray(new ObjectName[0])) {
            if (!wanted.containsKey(name) && !"Dispatcher".equals(name.getKeyProperty("type"))) {
                unregister(name);
            }
        }
        wanted.forEach((name, subject) -> {
            if (!registered.containsKey(name)) {
                register(name, subject.length == 1 ? new ClusterBean(control, subject[0])
                        : new NodeBean(control, subject[0], subject[1]));
            }
        });
    }

    private void register(ObjectName name, Object bean) {
        try {
            server.registerMBean(bean, name);
            registered.put(name, bean);
        } catch (JMException e) {
            log.warn("JMX: cannot register {}: {}", name, e.toString());
        }
    }

    private void unregister(ObjectName name) {
        registered.remove(name);
        try {
            server.unregisterMBean(name);
        } catch (JMException e) {
            log.debug("JMX: {} was already gone: {}", name, e.toString());
        }
    }

    /** How many beans this export holds now. */
    public synchronized int size() {
        return registered.size();
    }

    /** {@code io.loadwise:k1=v1,...}; a value with a character ObjectName reserves is quoted. */
    static ObjectName name(String... keysAndValues) {
        StringBuilder text = new StringBuilder(DOMAIN).append(':');
        for (int i = 0; i < keysAndValues.length; i += 2) {
            String value = keysAndValues[i + 1];
            boolean plain = value.chars().noneMatch(c -> ",=:\"*?\\\n".indexOf(c) >= 0);
            text.append(i == 0 ? "" : ",").append(keysAndValues[i]).append('=')
                    .append(plain ? value : ObjectName.quote(value));
        }
        try {
            return new ObjectName(text.toString());
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalArgumentException(text + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        if (ticker != null) {
            ticker.shutdownNow();
        }
        for (ObjectName name : registered.keySet().toArray(new ObjectName[0])) {
            unregister(name);
        }
    }
}
