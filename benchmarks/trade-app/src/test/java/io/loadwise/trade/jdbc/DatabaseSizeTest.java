package io.loadwise.trade.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DatabaseSizeTest {

    @Test
    void rejectsSizesOutOfRange() {
        assertEquals("users must be between 1 and 1000000, got 0",
                assertThrows(IllegalArgumentException.class, () -> new DatabaseSize(0, 10)).getMessage());
        assertEquals("quotes must be between 1 and 100000, got 100001",
                assertThrows(IllegalArgumentException.class, () -> new DatabaseSize(10, 100_001)).getMessage());
    }

    @Test
    void namesUsersAndSymbolsLikeDayTrader() {
        assertEquals("uid:3", DatabaseSize.userId(3));
        assertEquals("s:42", DatabaseSize.symbol(42));
    }
}
