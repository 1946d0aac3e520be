package io.loadwise.trade.web;

import io.loadwise.trade.jdbc.DatabaseSize;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /trade/config?action=buildDB&users=N&quotes=M}: drops and repopulates the shared database.
 * Any node can do it; the other nodes pick the new size up within seconds (see TradeCatalog).
 */
public final class ConfigServlet extends HttpServlet {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigServlet.class);

    private transient TradeServices services;

    @Override
    public void init() {
        services = TradeServices.of(getServletContext());
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String action = req.getParameter("action");
        if (!"buildDB".equals(action)) {
            resp.sendError(HttpServletResponse.SC_BAD_REQUEST,
                    "unknown or missing action '" + action + "': supported is action=buildDB");
            return;
        }
        DatabaseSize size;
        try {
            size = new DatabaseSize(
                    intParameter(req, "users", DatabaseSize.DEFAULT.users()),
                    intParameter(req, "quotes", DatabaseSize.DEFAULT.quotes()));
        } catch (IllegalArgumentException e) {
            resp.sendError(HttpServletResponse.SC_BAD_REQUEST, e.getMessage());
            return;
        }
        long started = System.nanoTime();
        try {
            services.schema().build(size);
        } catch (SQLException e) {
            LOG.error("buildDB failed", e);
            resp.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, "buildDB failed: " + e.getMessage());
            return;
        } finally {
            services.catalog().invalidate();
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        LOG.info("database built: {} users, {} quotes in {} ms", size.users(), size.quotes(), millis);
        resp.setContentType("text/html;charset=UTF-8");
        new HtmlPage("DayTrader Database Built")
                .facts("users", size.users(), "quotes", size.quotes(), "milliseconds", millis)
                .writeTo(resp.getWriter());
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        doGet(req, resp);
    }

    private static int intParameter(HttpServletRequest req, String name, int fallback) {
        String value = req.getParameter(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not an integer: '" + value + "'", e);
        }
    }
}
