package io.loadwise.trade.web;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks up the container-managed DataSource ({@code java:comp/env/jdbc/TradeDB}, declared as a
 * resource-ref in web.xml) and builds the shared services. Failing here fails the deployment, which
 * is what we want when the container has no such resource.
 */
public final class TradeAppListener implements ServletContextListener {

    static final String DATASOURCE_JNDI = "java:comp/env/jdbc/TradeDB";
    static final String HISTORY_LIMIT_PARAM = "trade.session.historyLimit";
    /** Context parameter, or else system property (set on any app server without repacking the WAR). */
    static final String STATE_KB_PARAM = "trade.session.stateKb";
    /** Idle timeout of a login session in seconds (context parameter or system property); unset: web.xml's. */
    static final String TIMEOUT_PARAM = "trade.session.timeoutSeconds";
    /**
     * Milliseconds each scenario request holds a JDBC connection while it pauses (context parameter or system
     * property; unset: 0, none): see {@link io.loadwise.trade.jdbc.HeldConnection}.
     */
    static final String JDBC_HOLD_PARAM = "trade.jdbc.holdMs";
    private static final int MAX_JDBC_HOLD_MS = 600_000;
    private static final int DEFAULT_HISTORY_LIMIT = 100;
    private static final int MAX_STATE_KB = 64 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(TradeAppListener.class);

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        DataSource dataSource;
        try {
            dataSource = (DataSource) new InitialContext().lookup(DATASOURCE_JNDI);
        } catch (NamingException e) {
            throw new IllegalStateException("no DataSource at " + DATASOURCE_JNDI + ": the container must define"
                    + " the jdbc/TradeDB resource", e);
        }
        int historyLimit = historyLimit(context.getInitParameter(HISTORY_LIMIT_PARAM));
        int stateKb = stateKb(setting(context, STATE_KB_PARAM));
        int timeoutSeconds = timeoutSeconds(setting(context, TIMEOUT_PARAM));
        int holdMs = jdbcHoldMs(setting(context, JDBC_HOLD_PARAM));
        context.setAttribute(TradeServices.ATTRIBUTE,
                TradeServices.over(dataSource, ScenarioMix.STANDARD, historyLimit, stateKb, timeoutSeconds, holdMs));
        LOG.info("trade app ready: DataSource {}, session history limit {}, session state {} KB, session timeout {},"
                        + " JDBC hold {} ms per scenario request", DATASOURCE_JNDI, historyLimit, stateKb,
                timeoutSeconds == 0 ? "from web.xml" : timeoutSeconds + " s", holdMs);
    }

    /** A context parameter, or else the system property of the same name (null when neither is set). */
    private static String setting(ServletContext context, String name) {
        String value = context.getInitParameter(name);
        return value != null ? value : System.getProperty(name);
    }

    /** 0 (keep web.xml's timeout) when unset. */
    static int timeoutSeconds(String value) {
        return integer(TIMEOUT_PARAM, value, 0, 1, Integer.MAX_VALUE);
    }

    static int jdbcHoldMs(String value) {
        return integer(JDBC_HOLD_PARAM, value, 0, 0, MAX_JDBC_HOLD_MS);
    }

    static int stateKb(String value) {
        return integer(STATE_KB_PARAM, value, 0, 0, MAX_STATE_KB);
    }

    static int historyLimit(String value) {
        return integer(HISTORY_LIMIT_PARAM, value, DEFAULT_HISTORY_LIMIT, 1, Integer.MAX_VALUE);
    }

    /** {@code value} as an integer in [min, max], {@code unset} when blank; a clear error otherwise. */
    private static int integer(String name, String value, int unset, int min, int max) {
        if (value == null || value.isBlank()) {
            return unset;
        }
        int parsed;
        try {
            parsed = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not an integer: '" + value + "'", e);
        }
        if (parsed < min || parsed > max) {
            throw new IllegalArgumentException(name + (max == Integer.MAX_VALUE ? " must be at least " + min
                    : " must be between " + min + " and " + max) + ", got " + parsed);
        }
        return parsed;
    }
}
