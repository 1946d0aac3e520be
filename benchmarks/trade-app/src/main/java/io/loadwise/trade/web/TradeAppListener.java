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
    private static final int DEFAULT_HISTORY_LIMIT = 100;
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
        context.setAttribute(TradeServices.ATTRIBUTE, TradeServices.over(dataSource, ScenarioMix.STANDARD, historyLimit));
        LOG.info("trade app ready: DataSource {}, session history limit {}", DATASOURCE_JNDI, historyLimit);
    }

    static int historyLimit(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_HISTORY_LIMIT;
        }
        try {
            int limit = Integer.parseInt(value.trim());
            if (limit < 1) {
                throw new IllegalArgumentException(HISTORY_LIMIT_PARAM + " must be positive, got " + limit);
            }
            return limit;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(HISTORY_LIMIT_PARAM + " is not an integer: '" + value + "'", e);
        }
    }
}
