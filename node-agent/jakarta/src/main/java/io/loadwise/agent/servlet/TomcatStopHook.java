package io.loadwise.agent.servlet;

import jakarta.servlet.ServletContext;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;

/**
 * On Tomcat, runs an action when the web application or the whole server is about to stop (their
 * {@code before_stop} lifecycle event), before Tomcat stops taking requests: a registered node deregisters
 * there, so the dispatcher drains it while it still serves. The servlet API's {@code contextDestroyed} comes
 * only after Tomcat has unmapped the application and paused its connectors. Reached by reflection, so the
 * agent keeps no Tomcat dependency; on any other server {@link #install} returns {@code null} and
 * {@code contextDestroyed} does the work.
 */
final class TomcatStopHook {

    private static final String BEFORE_STOP = "before_stop";

    private final Object context;
    private final Object server;
    private final Object listener;
    private final Class<?> listenerType;

    private TomcatStopHook(Object context, Object server, Object listener, Class<?> listenerType) {
        this.context = context;
        this.server = server;
        this.listener = listener;
        this.listenerType = listenerType;
    }

    /** The installed hook, or {@code null} when this is not Tomcat (or its internals are out of reach). */
    static TomcatStopHook install(ServletContext servletContext, Runnable beforeStop) {
        try {
            Object application = field(servletContext, "context"); // ApplicationContextFacade -> ApplicationContext
            Object context = field(application, "context"); // ApplicationContext -> StandardContext
            ClassLoader tomcat = context.getClass().getClassLoader();
            Class<?> listenerType = Class.forName("org.apache.catalina.LifecycleListener", false, tomcat);
            InvocationHandler handler = (proxy, method, args) -> {
                switch (method.getName()) {
                    case "lifecycleEvent" -> {
                        Object type = args[0].getClass().getMethod("getType").invoke(args[0]);
                        if (BEFORE_STOP.equals(type)) {
                            beforeStop.run();
                        }
                        return null;
                    }
                    case "equals" -> {
                        return proxy == args[0];
                    }
                    case "hashCode" -> {
                        return System.identityHashCode(proxy);
                    }
                    default -> {
                        return "Loadwise agent stop hook";
                    }
                }
            };
            Object listener = Proxy.newProxyInstance(tomcat, new Class<?>[] {listenerType}, handler);
            Object host = context.getClass().getMethod("getParent").invoke(context);
            Object engine = host.getClass().getMethod("getParent").invoke(host);
            Object service = engine.getClass().getMethod("getService").invoke(engine);
            Object server = service.getClass().getMethod("getServer").invoke(service);
            context.getClass().getMethod("addLifecycleListener", listenerType).invoke(context, listener);
            server.getClass().getMethod("addLifecycleListener", listenerType).invoke(server, listener);
            return new TomcatStopHook(context, server, listener, listenerType);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Takes the hook off again (the application stopped; the server must not keep a reference to it). */
    void remove() {
        for (Object target : new Object[] {context, server}) {
            try {
                target.getClass().getMethod("removeLifecycleListener", listenerType).invoke(target, listener);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // nothing more to do: the server is going away
            }
        }
    }

    private static Object field(Object target, String name) throws ReflectiveOperationException {
        Class<?> type = target.getClass();
        while (type != null) {
            try {
                Field f = type.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                type = type.getSuperclass();
            }
        }
        throw new NoSuchFieldException(name);
    }
}
