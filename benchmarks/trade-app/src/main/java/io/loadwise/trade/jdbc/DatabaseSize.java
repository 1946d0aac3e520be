package io.loadwise.trade.jdbc;

/**
 * How many users and quotes {@code buildDB} creates. Users are {@code uid:0..users-1}, quotes
 * {@code s:0..quotes-1}.
 */
public record DatabaseSize(int users, int quotes) {

    public static final int MAX_USERS = 1_000_000;
    public static final int MAX_QUOTES = 100_000;
    public static final DatabaseSize DEFAULT = new DatabaseSize(1000, 1000);

    public DatabaseSize {
        if (users < 1 || users > MAX_USERS) {
            throw new IllegalArgumentException("users must be between 1 and " + MAX_USERS + ", got " + users);
        }
        if (quotes < 1 || quotes > MAX_QUOTES) {
            throw new IllegalArgumentException("quotes must be between 1 and " + MAX_QUOTES + ", got " + quotes);
        }
    }

    public static String userId(int index) {
        return "uid:" + index;
    }

    public static String symbol(int index) {
        return "s:" + index;
    }
}
