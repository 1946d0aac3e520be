package io.loadwise.trade.model;

import java.math.BigDecimal;
import java.time.Instant;

/** Shares of one symbol bought in one order; {@code currentPrice} comes from the quote table. */
public record Holding(
        long holdingId,
        String symbol,
        double quantity,
        BigDecimal purchasePrice,
        Instant purchased,
        BigDecimal currentPrice) {
}
