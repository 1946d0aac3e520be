package io.loadwise.trade.model;

import java.math.BigDecimal;
import java.time.Instant;

/** A completed buy or sell order. */
public record Order(
        long orderId,
        OrderType type,
        String symbol,
        double quantity,
        BigDecimal price,
        BigDecimal fee,
        Instant completed) {
}
