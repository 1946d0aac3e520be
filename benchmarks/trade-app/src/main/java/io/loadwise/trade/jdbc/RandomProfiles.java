package io.loadwise.trade.jdbc;

import io.loadwise.trade.model.AccountProfile;
import java.util.random.RandomGenerator;

/** DayTrader-style made-up contact details ("first:952 last:3583", "480 Oak St."). */
public final class RandomProfiles {

    private RandomProfiles() {
    }

    public static AccountProfile profile(String userId, RandomGenerator random) {
        return new AccountProfile(
                userId,
                "first:" + random.nextInt(1000) + " last:" + random.nextInt(5000),
                random.nextInt(1000) + " Oak St.",
                userId + "@" + random.nextInt(100) + ".com",
                random.nextInt(100) + "-" + random.nextInt(1000) + "-" + random.nextInt(1000) + "-" + random.nextInt(1000));
    }
}
