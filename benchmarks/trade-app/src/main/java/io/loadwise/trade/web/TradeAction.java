package io.loadwise.trade.web;

/** The user actions of the trade scenario, named as in the {@code X-Trade-Action} response header. */
public enum TradeAction {
    HOME("home"),
    QUOTE("quote"),
    LOGIN("login"),
    LOGOUT("logout"),
    REGISTER("register"),
    ACCOUNT("account"),
    PORTFOLIO("portfolio"),
    BUY("buy"),
    SELL("sell"),
    UPDATE_PROFILE("update");

    /** The response header that names the action a scenario request performed. */
    public static final String HEADER = "X-Trade-Action";

    private final String label;

    TradeAction(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
