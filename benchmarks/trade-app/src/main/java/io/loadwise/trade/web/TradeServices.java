package io.loadwise.trade.web;

import io.loadwise.trade.jdbc.AccountRepository;
import io.loadwise.trade.jdbc.OrderRepository;
import io.loadwise.trade.jdbc.QuoteRepository;
import io.loadwise.trade.jdbc.TradeCatalog;
import io.loadwise.trade.jdbc.TradeSchema;
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
        int sessionTimeoutSeconds) {

    static final String ATTRIBUTE = "io.loadwise.trade.services";

    static TradeServices over(DataSource dataSource, ScenarioMix mix, int sessionHistoryLimit, int sessionStateKb,
            int sessionTimeoutSeconds) {
        return new TradeServices(dataSource, new TradeSchema(dataSource), new TradeCatalog(dataSource),
                new AccountRepository(dataSource), new QuoteRepository(dataSource), new OrderRepository(dataSource),
                mix, sessionHistoryLimit, sessionStateKb, sessionTimeoutSeconds);
    }

    static TradeServices of(ServletContext context) {
        TradeServices services = (TradeServices) context.getAttribute(ATTRIBUTE);
        if (services == null) {
            throw new IllegalStateException("trade services missing: TradeAppListener did not run");
        }
        return services;
    }
}
