package io.loadwise.trade.web;

import io.loadwise.trade.jdbc.AccountRepository;
import io.loadwise.trade.jdbc.HeldConnection;
import io.loadwise.trade.jdbc.OrderRepository;
import io.loadwise.trade.jdbc.QuoteRepository;
import io.loadwise.trade.jdbc.TradeCatalog;
import io.loadwise.trade.jdbc.TradeSchema;
import io.loadwise.trade.jdbc.UnavailableTranslatingDataSource;
import jakarta.servlet.ServletContext;
import javax.sql.DataSource;

/** Everything the servlets share, built once per web application by {@link TradeAppListener}. */
record TradeServices(
        DataSource dataSource,
        TradeSchema schema,
        TradeCatalog catalog,
        AccountRepository accounts,
        QuoteRepository quotes,
        OrderRepository orders,
        ScenarioMix mix,
        int sessionHistoryLimit,
        int sessionStateKb,
        int sessionTimeoutSeconds,
        HeldConnection heldConnection) {

    static final String ATTRIBUTE = "io.loadwise.trade.services";

    /**
     * The services over the container's pool; a connection the pool cannot hand out fails as
     * {@link io.loadwise.trade.jdbc.ConnectionUnavailableException}. {@code jdbcHoldMillis}: how long each scenario
     * request holds a connection first ({@link HeldConnection}; 0: none).
     */
    static TradeServices over(DataSource pool, ScenarioMix mix, int sessionHistoryLimit, int sessionStateKb,
            int sessionTimeoutSeconds, long jdbcHoldMillis) {
        DataSource dataSource = new UnavailableTranslatingDataSource(pool);
        return new TradeServices(dataSource, new TradeSchema(dataSource), new TradeCatalog(dataSource),
                new AccountRepository(dataSource), new QuoteRepository(dataSource), new OrderRepository(dataSource),
                mix, sessionHistoryLimit, sessionStateKb, sessionTimeoutSeconds,
                new HeldConnection(dataSource, jdbcHoldMillis));
    }

    static TradeServices of(ServletContext context) {
        TradeServices services = (TradeServices) context.getAttribute(ATTRIBUTE);
        if (services == null) {
            throw new IllegalStateException("trade services missing: TradeAppListener did not run");
        }
        return services;
    }
}
