package io.loadwise.trade.model;

import java.math.BigDecimal;

/** A stock quote; {@code change} is the price change since the open, in currency units. */
public record Quote(
        String symbol,
        String companyName,
        double volume,
        BigDecimal price,
        BigDecimal open,
        BigDecimal low,
        BigDecimal high,
        double change) {
}
