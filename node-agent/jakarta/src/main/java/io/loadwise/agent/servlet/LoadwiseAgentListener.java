package io.loadwise.agent.servlet;

import io.loadwise.agent.AgentConfig;
import io.loadwise.agent.AgentRuntime;
import io.loadwise.agent.register.Registrar;
import io.loadwise.agent.register.RegistrationSettings;
import io.loadwise.agent.register.ServerFacts;
import io.loadwise.agent.register.ShutdownDeregistration;
import io.loadwise.agent.register.WildFlySuspendHook;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.lang.System.Logger.Level;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Starts the agent with the web application and stops it with it. A configuration error is logged and
 * leaves the application running without the agent (the endpoint then answers 503 with the reason):
 * monitoring must never take the application down.
 *
 * <p>The javax flavour is this class with {@code jakarta.servlet} relocated to {@code javax.servlet} at
 * build time, so the source exists once.
 */
public class LoadwiseAgentListener implements ServletContextListener {

    /** Context attribute holding the {@link AgentRuntime}. */
    public static final String RUNTIME_ATTRIBUTE = AgentRuntime.class.getName();
    /** Context attribute holding the start-up error message when the agent could not start. */
    public static final String ERROR_ATTRIBUTE = AgentRuntime.class.getName() + ".error";

    /** Context attribute holding the {@link Registrar} when the node registers itself. */
    public static final String REGISTRAR_ATTRIBUTE = Registrar.class.getName();

    private static final String HOOK_ATTRIBUTE = TomcatStopHook.class.getName();
    private static final String SUSPEND_HOOK_ATTRIBUTE = WildFlySuspendHook.class.getName();
    private static final String SHUTDOWN_HOOK_ATTRIBUTE = ShutdownDeregistration.class.getName();

    private static final System.Logger LOG = System.getLogger(LoadwiseAgentListener.class.getName());

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        AgentConfig config;
        try {
            config = AgentConfig.load(parameters(context));
            AgentRuntime runtime = AgentRuntime.start(config);
            context.setAttribute(RUNTIME_ATTRIBUTE, runtime);
        } catch (RuntimeException e) {
            String message = "Loadwise agent not started in " + context.getContextPath() + ": " + e.getMessage();
            LOG.log(Level.ERROR, message, e);
            context.setAttribute(ERROR_ATTRIBUTE, message);
            return;
        }
        try {
            ServerFacts facts = ServerFacts.fromJmx();
            RegistrationSettings settings = RegistrationSettings.from(config, context.getContextPath(), facts);
            if (settings != null) {
                Registrar registrar = Registrar.start(settings, facts);
                context.setAttribute(REGISTRAR_ATTRIBUTE, registrar);
                TomcatStopHook hook = TomcatStopHook.install(context, registrar::close);
                if (hook != null) {
                    context.setAttribute(HOOK_ATTRIBUTE, hook);
                }
                WildFlySuspendHook suspendHook = WildFlySuspendHook.install(registrar);
                if (suspendHook != null) {
                    context.setAttribute(SUSPEND_HOOK_ATTRIBUTE, suspendHook);
                }
                // every server: leave selection when the JVM starts shutting down, not after the server stopped
                ShutdownDeregistration shutdownHook = ShutdownDeregistration.install(registrar);
                if (shutdownHook != null) {
                    context.setAttribute(SHUTDOWN_HOOK_ATTRIBUTE, shutdownHook);
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "Loadwise agent: node not registered from " + context.getContextPath() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        Object hook = event.getServletContext().getAttribute(HOOK_ATTRIBUTE);
        if (hook instanceof TomcatStopHook) {
            event.getServletContext().removeAttribute(HOOK_ATTRIBUTE);
            ((TomcatStopHook) hook).remove();
        }
        Object suspendHook = event.getServletContext().getAttribute(SUSPEND_HOOK_ATTRIBUTE);
        if (suspendHook instanceof WildFlySuspendHook) {
            event.getServletContext().removeAttribute(SUSPEND_HOOK_ATTRIBUTE);
            ((WildFlySuspendHook) suspendHook).remove();
        }
        Object shutdownHook = event.getServletContext().getAttribute(SHUTDOWN_HOOK_ATTRIBUTE);
        if (shutdownHook instanceof ShutdownDeregistration) {
            event.getServletContext().removeAttribute(SHUTDOWN_HOOK_ATTRIBUTE);
            ((ShutdownDeregistration) shutdownHook).remove();
        }
        Object registrar = event.getServletContext().getAttribute(REGISTRAR_ATTRIBUTE);
        if (registrar instanceof Registrar) {
            event.getServletContext().removeAttribute(REGISTRAR_ATTRIBUTE);
            ((Registrar) registrar).close(); // deregister first: the dispatcher drains the node
        }
        Object runtime = event.getServletContext().getAttribute(RUNTIME_ATTRIBUTE);
        if (runtime instanceof AgentRuntime) {
            event.getServletContext().removeAttribute(RUNTIME_ATTRIBUTE);
            ((AgentRuntime) runtime).close();
        }
    }

    private static Map<String, String> parameters(ServletContext context) {
        Map<String, String> parameters = new HashMap<>();
        for (String name : Collections.list(context.getInitParameterNames())) {
            parameters.put(name, context.getInitParameter(name));
        }
        return parameters;
    }
}
