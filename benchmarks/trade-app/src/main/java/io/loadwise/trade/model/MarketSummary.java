package io.loadwise.trade.model;

import java.math.BigDecimal;
import java.util.List;

/** The home page's market overview: an index over all quotes, total volume, top movers. */
public record MarketSummary(
        BigDecimal index,
        BigDecimal openIndex,
        double volume,
        List<Quote> topGainers,
        List<Quote> topLosers) {

    public MarketSummary {
        topGainers = List.copyOf(topGainers);
        topLosers = List.copyOf(topLosers);
    }
}
