package io.loadwise.dispatcher.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The re-probe back-off (issue 18, item 2) on a clock the test moves by hand. */
class ReprobeScheduleTest {

    private static final long POLL_MS = 1_000;
    private static final long EXPIRY_MS = 3_000;
    private static final long REPROBE_MS = 60_000;

    private long now = 1_000_000_000L; // any origin: only differences count
    private final ReprobeSchedule schedule = new ReprobeSchedule(now);

    private void advanceMillis(long millis) {
        now += millis * 1_000_000L;
    }

    /** A failed poll at the current time, then the delay the monitor waits before the next. */
    private long failedPoll(boolean connectDown) {
        schedule.pollFailed(now, EXPIRY_MS);
        return schedule.delayAfterPoll(false, connectDown, POLL_MS, REPROBE_MS);
    }

    private void silenceAfterExpiry() {
        for (int i = 0; i < 3; i++) {
            assertEquals(POLL_MS, failedPoll(false), "within the expiry period polls keep their interval");
            advanceMillis(POLL_MS);
        }
        advanceMillis(1);
        assertTrue(schedule.pollFailed(now, EXPIRY_MS), "silent once no sign of life for longer than the expiry");
        assertFalse(schedule.pollFailed(now, EXPIRY_MS), "and reported only once");
    }

    @Test
    void aSilentAgentIsReprobedAfterOneSecondThenBacksOffDoublingUpToAgentReprobeMs() {
        silenceAfterExpiry();
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            long delay = schedule.delayAfterPoll(false, false, POLL_MS, REPROBE_MS);
            delays.add(delay);
            advanceMillis(delay);
            schedule.pollFailed(now, EXPIRY_MS);
        }
        assertEquals(List.of(1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 32_000L, 60_000L, 60_000L, 60_000L), delays);
    }

    @Test
    void anySignOfLifeEndsTheSilenceAndTheBackOff() {
        silenceAfterExpiry();
        for (int i = 0; i < 5; i++) {
            advanceMillis(schedule.delayAfterPoll(false, false, POLL_MS, REPROBE_MS));
        }
        assertTrue(schedule.signOfLife(now), "the caller learns the agent was silent, so it polls at once");
        assertFalse(schedule.silent());
        assertFalse(schedule.signOfLife(now), "a second sign of life is nothing new");
        assertEquals(POLL_MS, schedule.delayAfterPoll(true, false, POLL_MS, REPROBE_MS));

        // Silent again later: the back-off starts over at 1 s, not where it stopped.
        silenceAfterExpiry();
        assertEquals(1_000, schedule.delayAfterPoll(false, false, POLL_MS, REPROBE_MS));
        assertEquals(2_000, schedule.delayAfterPoll(false, false, POLL_MS, REPROBE_MS));
    }

    @Test
    void aNodeHeldOutByConnectFailuresIsProbedEverySecondWithoutGrowingTheBackOff() {
        silenceAfterExpiry();
        assertEquals(1_000, schedule.delayAfterPoll(false, false, POLL_MS, REPROBE_MS));
        assertEquals(2_000, schedule.delayAfterPoll(false, false, POLL_MS, REPROBE_MS));
        for (int i = 0; i < 100; i++) {
            assertEquals(1_000, schedule.delayAfterPoll(false, true, POLL_MS, REPROBE_MS));
        }
        assertEquals(4_000, schedule.delayAfterPoll(false, false, POLL_MS, REPROBE_MS),
                "once readmitted without an agent answer, the back-off resumes where it was");
    }

    @Test
    void aReprobeIntervalBelowOneSecondCapsEveryStep() {
        silenceAfterExpiry();
        assertEquals(300, schedule.delayAfterPoll(false, false, POLL_MS, 300));
        assertEquals(300, schedule.delayAfterPoll(false, false, POLL_MS, 300));
        assertEquals(300, schedule.delayAfterPoll(false, true, POLL_MS, 300));
    }

    @Test
    void aNewNodeGetsOneExpiryPeriodToAnswerBeforeItIsSilent() {
        advanceMillis(EXPIRY_MS);
        assertFalse(schedule.pollFailed(now, EXPIRY_MS));
        assertEquals(POLL_MS, schedule.delayAfterPoll(false, false, POLL_MS, REPROBE_MS));
        advanceMillis(1);
        assertTrue(schedule.pollFailed(now, EXPIRY_MS));
        assertEquals(1_000, schedule.delayAfterPoll(false, false, POLL_MS, REPROBE_MS));
    }

    @Test
    void onlyTheLatestPollChainRuns() {
        schedule.startChain(7);
        assertTrue(schedule.isCurrentChain(7));
        schedule.startChain(8);
        assertFalse(schedule.isCurrentChain(7), "a poll of the replaced chain drops out");
        assertTrue(schedule.isCurrentChain(8));
    }
}
