package io.loadwise.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class Vcn3QueueTest {

    @Test
    void theSeedKeepsTheQueueHalfHalvesItToAtLeastOne() {
        assertEquals(12, Vcn3Queue.SEED.queueWithHalfThreads(12));
        assertEquals(6, Vcn3Queue.HALF.queueWithHalfThreads(12));
        assertEquals(1, Vcn3Queue.HALF.queueWithHalfThreads(1), "never below one");
    }

    @Test
    void theOptionIsSeedOrHalf() {
        assertEquals("seed", Vcn3Queue.SEED.key());
        assertEquals(Vcn3Queue.HALF, Vcn3Queue.parse("HALF"));
        assertEquals("--vcn3-queue: 'third' is neither seed nor half",
                assertThrows(IllegalArgumentException.class, () -> Vcn3Queue.parse("third")).getMessage());
    }
}
