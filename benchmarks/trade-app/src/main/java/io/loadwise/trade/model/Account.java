package io.loadwise.trade.model;

import java.math.BigDecimal;
import java.time.Instant;

/** A trading account: one per user, holding the cash balance and login statistics. */
public record Account(
        int accountId,
        String userId,
        Instant created,
        Instant lastLogin,
        int loginCount,
        int logoutCount,
        BigDecimal balance,
        BigDecimal openBalance) {
}
