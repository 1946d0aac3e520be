package io.loadwise.policy.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The per-metric filter: exact readings pass as they are, noise is averaged away, a sustained shift shows. */
class MetricTrackTest {

    private static MetricTrack feed(MetricTrack track, double... readings) {
        MetricTrack t = track;
        for (double r : readings) {
            t = t == null ? MetricTrack.first(r) : t.next(r);
        }
        return t;
    }

    @Test
    void anExactMetricIsReadAsItIsOnceWarm() {
        MetricTrack track = feed(null, 40, 42, 44, 46, 48, 50, 52);
        assertEquals(52, track.level(), 1e-9, "a drifting metric without swings: no noise, the level is the reading");
        assertEquals(0, track.noise(), 1e-9);
        track = track.next(90);
        assertEquals(90, track.level(), 1e-9, "and a step is followed at once");
    }

    @Test
    void theFirstReadingsAreAveragedNotTakenAlone() {
        MetricTrack track = feed(null, 100, 50);
        assertEquals(75, track.level(), 1e-9, "the mean of the first two");
        assertTrue(track.count() < MetricTrack.WARM_UP);
    }

    @Test
    void noisyReadingsAroundSeventyRarelyLookLikeEightyFive() {
        for (double noise : new double[] {0.1, 0.2, 0.3, 0.5}) {
            SplittableRandom random = new SplittableRandom(7);
            MetricTrack track = null;
            int excluded = 0;
            int rawOver = 0;
            for (int i = 0; i < 1000; i++) {
                double reading = Math.min(100, Math.max(0, 70 * (1 + noise * random.nextGaussian())));
                rawOver += reading > 85 ? 1 : 0;
                track = track == null ? MetricTrack.first(reading) : track.next(reading);
                if (track.count() >= ReadingFilter.READINGS_TO_EXCLUDE && reading > 85
                        && track.level() - ReadingFilter.CONFIDENCE * track.error() > 85) {
                    excluded++; // what saturatedNow would do: filtered level over by two errors, raw confirming
                }
            }
            assertTrue(rawOver >= 10, "noise " + noise + ": the raw readings cross 85 often (" + rawOver + ")");
            assertTrue(excluded <= rawOver / 10, "noise " + noise + ": a tenth of the raw crossings at most would"
                    + " exclude the node: " + excluded + " of " + rawOver);
            assertEquals(70 * noise, track.noise(), 70 * noise * 0.6, "noise " + noise + ": its size is estimated");
        }
    }

    @Test
    void aSustainedShiftInANoisyMetricShowsWithinTwentyReadings() {
        SplittableRandom random = new SplittableRandom(3);
        MetricTrack track = null;
        for (int i = 0; i < 200; i++) {
            double reading = 50 * (1 + 0.2 * random.nextGaussian());
            track = track == null ? MetricTrack.first(reading) : track.next(reading);
        }
        assertEquals(50, track.level(), 8);
        for (int i = 0; i < 20; i++) {
            track = track.next(95 * (1 + 0.02 * random.nextGaussian()));
        }
        assertTrue(track.level() > 85, "20 readings at 95: the level follows, " + track.level());
    }
}
