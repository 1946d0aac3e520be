package io.loadwise.trade.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * {@code /trade/health}: 200 "UP" when a pooled connection to the database is valid, 503 "DOWN"
 * otherwise. It does not need the trade tables, so it answers before buildDB.
 */
public final class HealthServlet extends HttpServlet {

    private static final int VALIDATION_SECONDS = 2;

    private transient TradeServices services;

    @Override
    public void init() {
        services = TradeServices.of(getServletContext());
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain;charset=UTF-8");
        String problem;
        try (Connection c = services.dataSource().getConnection()) {
            problem = c.isValid(VALIDATION_SECONDS) ? null : "database connection is not valid";
        } catch (SQLException e) {
            problem = "database unreachable: " + e.getMessage();
        }
        if (problem == null) {
            resp.getWriter().write("UP\n");
        } else {
            resp.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            resp.getWriter().write("DOWN " + problem + "\n");
        }
    }
}
