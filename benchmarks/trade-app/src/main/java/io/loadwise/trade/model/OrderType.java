package io.loadwise.trade.model;

/** The two kinds of order; the lower-case name is what the database stores. */
public enum OrderType {
    BUY, SELL;

    public String dbValue() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static OrderType fromDb(String value) {
        return valueOf(value.toUpperCase(java.util.Locale.ROOT));
    }
}
