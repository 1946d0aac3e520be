package io.loadwise.agent.register;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * On WildFly (and JBoss EAP 8), takes the node out of selection when the server is suspended, before it
 * stops taking requests: the agent registers a suspendable activity with WildFly's suspend controller, as
 * mod_cluster does. WildFly suspends in two phases: every activity's {@code prepare}, then every activity's
 * {@code suspend}, where its request controller starts answering 503 to new requests. The activity deregisters
 * in {@code prepare}, so the dispatcher sends nothing new before that 503 starts; it registers again on
 * {@code resume} (an operator's {@code :suspend} and {@code :resume}). A SIGTERM suspends the same way first.
 *
 * <p>Reached by reflection through JBoss Modules' boot module loader and the MSC service container (the
 * deployment's class loader sees neither), so the agent keeps no WildFly dependency; on any other server,
 * or a WildFly whose suspend controller is out of reach, {@link #install} returns {@code null} and the
 * {@link ShutdownDeregistration} hook and {@code contextDestroyed} do the work.
 */
public final class WildFlySuspendHook {

    /** The suspend controller's capability name (WildFly 31+ server module, {@code SuspendableActivityRegistry}). */
    static final String SUSPEND_CONTROLLER = "org.wildfly.server.suspend-controller";
    /**
     * A SIGTERM gives the whole suspend 500 ms by default ({@code org.wildfly.sigterm.suspend.timeout} 0 + 500 ms)
     * before WildFly stops its services anyway, so {@code prepare} must be done well within that.
     */
    static final Duration SUSPEND_CALL_TIMEOUT = Duration.ofMillis(300);
    /** Requests the dispatcher sent just before the deregistration reach the server within this. */
    static final long SUSPEND_DRAIN_MILLIS = 100;

    private static final System.Logger LOG = System.getLogger(WildFlySuspendHook.class.getName());

    private final Object registry;
    private final Object activity;
    private final Class<?> activityType;

    private WildFlySuspendHook(Object registry, Object activity, Class<?> activityType) {
        this.registry = registry;
        this.activity = activity;
        this.activityType = activityType;
    }

    /** The installed hook, or {@code null} when this is not WildFly 31+ (or its internals are out of reach). */
    public static WildFlySuspendHook install(Registrar registrar) {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        Class<?> moduleType;
        try {
            moduleType = Class.forName("org.jboss.modules.Module", false, system);
        } catch (ClassNotFoundException | LinkageError e) {
            return null; // not JBoss Modules: not WildFly
        }
        try {
            Class<?> loaderType = Class.forName("org.jboss.modules.ModuleLoader", false, system);
            Object bootLoader = moduleType.getMethod("getBootModuleLoader").invoke(null);
            Object serverModule = loaderType.getMethod("loadModule", String.class).invoke(bootLoader, "org.jboss.as.server");
            ClassLoader server = (ClassLoader) moduleType.getMethod("getClassLoader").invoke(serverModule);
            Class<?> registryType = Class.forName("org.jboss.as.server.suspend.SuspendableActivityRegistry", false, server);
            Class<?> activityType = Class.forName("org.jboss.as.server.suspend.SuspendableActivity", false, server);
            Class<?> priorityType = Class.forName(
                    "org.jboss.as.server.suspend.SuspendableActivityRegistry$SuspendPriority", false, server);
            Object registry = suspendController(server, registryType);
            InvocationHandler handler = (proxy, method, args) -> switch (method.getName()) {
                case "prepare" -> CompletableFuture.runAsync(
                        () -> registrar.leave(SUSPEND_CALL_TIMEOUT, SUSPEND_DRAIN_MILLIS, "WildFly suspends"),
                        WildFlySuspendHook::daemon);
                case "suspend" -> CompletableFuture.completedFuture(null);
                case "resume" -> {
                    registrar.rejoin();
                    yield CompletableFuture.completedFuture(null);
                }
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "Loadwise agent suspend hook";
            };
            Object activity = Proxy.newProxyInstance(server, new Class<?>[] {activityType}, handler);
            // FIRST: prepared (and so deregistered) no later than any other activity
            Object first = priorityType.getField("FIRST").get(null);
            registryType.getMethod("registerActivity", activityType, priorityType).invoke(registry, activity, first);
            LOG.log(System.Logger.Level.INFO, "Loadwise agent: node " + registrar.settings().name()
                    + " leaves selection when WildFly suspends (before it answers 503)");
            return new WildFlySuspendHook(registry, activity, activityType);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.log(System.Logger.Level.WARNING, "Loadwise agent: WildFly's suspend controller is out of reach ("
                    + e + "); the node deregisters when the JVM starts shutting down or the application stops, "
                    + "not when the server is suspended");
            return null;
        }
    }

    private static void daemon(Runnable task) {
        Thread t = new Thread(task, "loadwise-agent-suspend-deregistration");
        t.setDaemon(true);
        t.start();
    }

    /** The suspend controller, the value of its MSC service. */
    private static Object suspendController(ClassLoader server, Class<?> registryType) throws ReflectiveOperationException {
        Object container = Class.forName("org.jboss.as.server.CurrentServiceContainer", true, server)
                .getMethod("getServiceContainer").invoke(null);
        Class<?> nameType = Class.forName("org.jboss.msc.service.ServiceName", false, server);
        Object name = nameType.getMethod("parse", String.class).invoke(null, SUSPEND_CONTROLLER);
        Object controller = Class.forName("org.jboss.msc.service.ServiceRegistry", false, server)
                .getMethod("getService", nameType).invoke(container, name);
        if (controller == null) {
            throw new ClassNotFoundException(SUSPEND_CONTROLLER + " service");
        }
        // A service installed with MSC's newer API has no getValue(): its value sits in the service object.
        Object service = field(controller, "service");
        for (Class<?> type = service.getClass(); type != null; type = type.getSuperclass()) {
            for (Field f : type.getDeclaredFields()) {
                f.setAccessible(true);
                Object value = f.get(service);
                if (registryType.isInstance(value)) {
                    return value;
                }
            }
        }
        throw new NoSuchFieldException("suspend controller in " + service.getClass().getName());
    }

    /** Takes the activity off again (the application stopped; the server must not keep a reference to it). */
    public void remove() {
        try {
            registry.getClass().getMethod("unregisterActivity", activityType).invoke(registry, activity);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // nothing more to do: the server is going away
        }
    }

    private static Object field(Object target, String name) throws ReflectiveOperationException {
        for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
            try {
                Field f = type.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(name);
    }
}
