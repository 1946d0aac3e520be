package io.loadwise.trade.web;

import java.util.EnumMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Percent weights of the scenario's actions. {@link #STANDARD} is DayTrader's standard mix; as there,
 * login has weight 0 because every logout makes the next request of that client log in again.
 */
public final class ScenarioMix {

    public static final ScenarioMix STANDARD = new ScenarioMix(Map.of(
            TradeAction.HOME, 20,
            TradeAction.QUOTE, 40,
            TradeAction.LOGOUT, 4,
            TradeAction.REGISTER, 2,
            TradeAction.ACCOUNT, 10,
            TradeAction.PORTFOLIO, 12,
            TradeAction.BUY, 4,
            TradeAction.SELL, 4,
            TradeAction.UPDATE_PROFILE, 4));

    private final TradeAction[] actions;
    private final int[] cumulative;

    public ScenarioMix(Map<TradeAction, Integer> weights) {
        Map<TradeAction, Integer> sorted = new EnumMap<>(TradeAction.class);
        sorted.putAll(weights);
        actions = new TradeAction[sorted.size()];
        cumulative = new int[sorted.size()];
        int total = 0;
        int i = 0;
        for (Map.Entry<TradeAction, Integer> e : sorted.entrySet()) {
            if (e.getValue() < 0) {
                throw new IllegalArgumentException("weight of " + e.getKey().label() + " is negative: " + e.getValue());
            }
            total += e.getValue();
            actions[i] = e.getKey();
            cumulative[i++] = total;
        }
        if (total == 0) {
            throw new IllegalArgumentException("a scenario mix needs at least one positive weight");
        }
    }

    public int totalWeight() {
        return cumulative[cumulative.length - 1];
    }

    public int weight(TradeAction action) {
        for (int i = 0; i < actions.length; i++) {
            if (actions[i] == action) {
                return cumulative[i] - (i == 0 ? 0 : cumulative[i - 1]);
            }
        }
        return 0;
    }

    /** Draws one action with probability weight / total weight. */
    public TradeAction pick(RandomGenerator random) {
        int ticket = random.nextInt(totalWeight());
        for (int i = 0; i < cumulative.length; i++) {
            if (ticket < cumulative[i]) {
                return actions[i];
            }
        }
        throw new AssertionError("ticket " + ticket + " beyond total " + totalWeight());
    }
}
