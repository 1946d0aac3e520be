package io.loadwise.trade.web;

import io.loadwise.trade.jdbc.ConnectionUnavailableException;
import io.loadwise.trade.jdbc.DatabaseNotBuiltException;
import io.loadwise.trade.jdbc.DatabaseSize;
import io.loadwise.trade.jdbc.RandomProfiles;
import io.loadwise.trade.jdbc.TradeSchema;
import io.loadwise.trade.model.Account;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /trade/scenario}: DayTrader's workload driver. A request without a logged-in session logs a
 * random user {@code uid:0..users-1} into a new session and shows the home page; otherwise one
 * action is drawn from the {@link ScenarioMix} and performed for the session's user. With
 * {@code trade.jdbc.holdMs} set, every request first holds a JDBC connection that long ({@link
 * io.loadwise.trade.jdbc.HeldConnection}). A request that gets no JDBC connection within the pool's longest wait
 * is answered 503 and logged as one line holding {@value #NO_CONNECTION_LOG} (the bench sweep counts them per
 * node).
 */
public final class ScenarioServlet extends HttpServlet {

    private static final Logger LOG = LoggerFactory.getLogger(ScenarioServlet.class);
    private static final BigDecimal REGISTER_BALANCE = new BigDecimal("1000000.00");
    /** In the log line of a request that got no JDBC connection; the bench runner counts these lines per node. */
    public static final String NO_CONNECTION_LOG = "503 no JDBC connection";

    private transient TradeServices services;
    private transient TradePages pages;

    @Override
    public void init() {
        services = TradeServices.of(getServletContext());
        pages = new TradePages(services);
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        RandomGenerator random = ThreadLocalRandom.current();
        HttpSession httpSession = req.getSession(false);
        TradeSession session = httpSession == null ? null : (TradeSession) httpSession.getAttribute(TradeSession.ATTRIBUTE);
        TradeAction action = session == null ? TradeAction.LOGIN : services.mix().pick(random);
        resp.setHeader(TradeAction.HEADER, action.label());
        try {
            services.heldConnection().hold();
            HtmlPage page = perform(action, session, req, random);
            resp.setContentType("text/html;charset=UTF-8");
            page.writeTo(resp.getWriter());
        } catch (ConnectionUnavailableException e) {
            // one line, no stack trace: under an exhausted pool this happens many times a second
            LOG.warn("{} for action {}: {}", NO_CONNECTION_LOG, action.label(), e.getCause().getMessage());
            resp.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, e.getMessage());
        } catch (DatabaseNotBuiltException e) {
            resp.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, e.getMessage());
        } catch (StaleSessionException e) {
            invalidate(req.getSession(false));
            resp.sendError(HttpServletResponse.SC_CONFLICT, e.getMessage());
        } catch (SQLException e) {
            LOG.warn("scenario action {} failed", action.label(), e);
            resp.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR,
                    "action " + action.label() + " failed: " + e.getMessage());
        }
    }

    private HtmlPage perform(TradeAction action, TradeSession session, HttpServletRequest req, RandomGenerator random)
            throws SQLException {
        return switch (action) {
            case LOGIN -> login(req, random);
            case LOGOUT -> logout(session, req);
            case REGISTER -> register(session, req, random);
            case HOME -> pages.home(session);
            case QUOTE -> pages.quotes(session, random);
            case ACCOUNT -> pages.account(session);
            case PORTFOLIO -> pages.portfolio(session);
            case BUY -> pages.buy(session, random);
            case SELL -> pages.sell(session, random);
            case UPDATE_PROFILE -> pages.updateProfile(session, random);
        };
    }

    private HtmlPage login(HttpServletRequest req, RandomGenerator random) throws SQLException {
        DatabaseSize size = services.catalog().size();
        String userId = DatabaseSize.userId(random.nextInt(size.users()));
        Account account = services.accounts().login(userId, TradeSchema.PASSWORD).orElse(null);
        if (account == null) {
            // The database shrank since the catalog was read; next request reads it afresh.
            services.catalog().invalidate();
            throw new SQLException("user " + userId + " does not exist or has another password");
        }
        return pages.home(startSession(req, account));
    }

    /** Logs out; DayTrader counts this as login/logout because the client's next request logs in again. */
    private HtmlPage logout(TradeSession session, HttpServletRequest req) throws SQLException {
        services.accounts().logout(session.userId());
        invalidate(req.getSession(false));
        return new HtmlPage("DayTrader Logout").paragraph("Goodbye " + session.userId());
    }

    /** Logs the current user out and a newly registered user in, on a new session. */
    private HtmlPage register(TradeSession session, HttpServletRequest req, RandomGenerator random)
            throws SQLException {
        services.accounts().logout(session.userId());
        invalidate(req.getSession(false));
        String userId = "ru:" + Long.toUnsignedString(random.nextLong(), 36);
        Account account = services.accounts().register(RandomProfiles.profile(userId, random), REGISTER_BALANCE);
        TradeSession registered = startSession(req, account);
        registered.record(TradeAction.REGISTER, userId);
        return new HtmlPage("DayTrader Registration")
                .paragraph("Registration successful: welcome " + userId)
                .facts("account ID", account.accountId(), "opening balance", account.openBalance());
    }

    private TradeSession startSession(HttpServletRequest req, Account account) {
        TradeSession session = new TradeSession(account.userId(), account.accountId(), services.sessionHistoryLimit(),
                services.sessionStateKb());
        HttpSession httpSession = req.getSession(true);
        if (services.sessionTimeoutSeconds() > 0) {
            httpSession.setMaxInactiveInterval(services.sessionTimeoutSeconds());
        }
        httpSession.setAttribute(TradeSession.ATTRIBUTE, session);
        return session;
    }

    private static void invalidate(HttpSession httpSession) {
        if (httpSession != null) {
            try {
                httpSession.invalidate();
            } catch (IllegalStateException alreadyInvalidated) {
                // A concurrent request of the same client got there first; the outcome is the same.
            }
        }
    }
}
