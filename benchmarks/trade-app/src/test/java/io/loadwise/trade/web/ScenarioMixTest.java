package io.loadwise.trade.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ScenarioMixTest {

    @Test
    void standardMixIsDayTradersStandardMix() {
        ScenarioMix mix = ScenarioMix.STANDARD;
        assertEquals(100, mix.totalWeight());
        assertEquals(20, mix.weight(TradeAction.HOME));
        assertEquals(40, mix.weight(TradeAction.QUOTE));
        assertEquals(0, mix.weight(TradeAction.LOGIN));
        assertEquals(4, mix.weight(TradeAction.LOGOUT));
        assertEquals(2, mix.weight(TradeAction.REGISTER));
        assertEquals(10, mix.weight(TradeAction.ACCOUNT));
        assertEquals(12, mix.weight(TradeAction.PORTFOLIO));
        assertEquals(4, mix.weight(TradeAction.BUY));
        assertEquals(4, mix.weight(TradeAction.SELL));
        assertEquals(4, mix.weight(TradeAction.UPDATE_PROFILE));
    }

    @Test
    void picksFollowTheWeightsWithinOnePercentagePoint() {
        Random random = new Random(12345L);
        Map<TradeAction, Integer> counts = new EnumMap<>(TradeAction.class);
        int draws = 200_000;
        for (int i = 0; i < draws; i++) {
            counts.merge(ScenarioMix.STANDARD.pick(random), 1, Integer::sum);
        }
        for (TradeAction action : TradeAction.values()) {
            double percent = 100.0 * counts.getOrDefault(action, 0) / draws;
            assertEquals(ScenarioMix.STANDARD.weight(action), percent, 1.0, action.label());
        }
        assertTrue(!counts.containsKey(TradeAction.LOGIN), "login has weight 0 and must never be drawn");
    }

    @Test
    void rejectsNegativeAndAllZeroWeights() {
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> new ScenarioMix(Map.of(TradeAction.HOME, 5, TradeAction.BUY, -1)));
        assertEquals("weight of buy is negative: -1", negative.getMessage());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> new ScenarioMix(Map.of(TradeAction.HOME, 0)));
        assertEquals("a scenario mix needs at least one positive weight", zero.getMessage());
    }
}
