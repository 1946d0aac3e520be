package io.loadwise.console.web;

import io.loadwise.console.auth.ConsoleAuthFilter;
import io.loadwise.console.auth.LoginGuard;
import io.loadwise.console.replicas.PeerFigures;
import io.loadwise.dispatcher.control.ClusterControl;
import jakarta.servlet.Filter;
import jakarta.servlet.SessionTrackingMode;
import java.util.EnumSet;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.apache.tomcat.util.http.Rfc6265CookieProcessor;

/**
 * Installs the web console into the admin context: session cookie settings, the security-header and
 * console-login filters (ahead of the API's bearer filter) and the page servlet on {@code /}.
 */
public final class ConsoleWeb {

    public static final String SESSION_COOKIE = "LOADWISE_SESSION";
    /** Idle minutes before a console session ends. */
    public static final int SESSION_IDLE_MINUTES = 30;

    private ConsoleWeb() {
    }

    /**
     * Call before the API's filters are added, so these run first.
     *
     * @param peers how the Replicas page asks the other replicas for their figures
     */
    public static void install(Context context, ClusterControl control, LoginGuard guard, PeerFigures peers) {
        // Session id in a cookie only (never in URLs): HttpOnly, SameSite=Strict, Path=/, and Secure
        // whenever the request came over TLS (Tomcat adds it for secure requests).
        context.setCookies(true);
        context.setSessionCookieName(SESSION_COOKIE);
        context.setSessionCookiePath("/");
        context.setUseHttpOnly(true);
        context.setSessionTimeout(SESSION_IDLE_MINUTES);
        Rfc6265CookieProcessor cookies = new Rfc6265CookieProcessor();
        cookies.setSameSiteCookies("strict");
        context.setCookieProcessor(cookies);
        context.addServletContainerInitializer((classes, servletContext) ->
                servletContext.setSessionTrackingModes(EnumSet.of(SessionTrackingMode.COOKIE)), null);

        addFilter(context, "security-headers", new SecurityHeadersFilter(), "/*");
        addFilter(context, "console-auth", new ConsoleAuthFilter(), "/*");
        Tomcat.addServlet(context, "console", new ConsoleServlet(control, guard, peers));
        context.addServletMappingDecoded("/", "console");
    }

    static void addFilter(Context context, String name, Filter filter, String... patterns) {
        FilterDef def = new FilterDef();
        def.setFilterName(name);
        def.setFilter(filter);
        context.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName(name);
        for (String pattern : patterns) {
            map.addURLPatternDecoded(pattern);
        }
        context.addFilterMap(map);
    }
}
