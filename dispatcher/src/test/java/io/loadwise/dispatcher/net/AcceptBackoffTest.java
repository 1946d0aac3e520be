package io.loadwise.dispatcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The accept back-off on virtual time: an {@link EmbeddedChannel} stands in for the listening channel,
 * its {@code autoRead} flag is whether the listener accepts.
 */
class AcceptBackoffTest {

    private static final IOException EMFILE = new IOException("accept(..) failed: Too many open files");

    private final Logger logger = (Logger) LoggerFactory.getLogger(AcceptBackoff.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private EmbeddedChannel server;

    @BeforeEach
    void setUp() {
        logged.start();
        logger.addAppender(logged);
        server = new EmbeddedChannel(AcceptGuard.of("cluster web", 0, null, () -> { }));
        server.freezeTime();
    }

    @AfterEach
    void tearDown() {
        logger.detachAppender(logged);
        server.finishAndReleaseAll();
    }

    /** Advances virtual time and runs what became due. */
    private void advance(long millis) {
        server.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        server.runScheduledPendingTasks();
    }

    /** Fails accepting, and returns how long the listener then stays paused, in ms. */
    private long failAndMeasurePause() {
        server.pipeline().fireExceptionCaught(EMFILE);
        long paused = 0;
        while (!server.config().isAutoRead()) {
            advance(1);
            paused++;
            assertTrue(paused <= 2_000, "still paused after 2 s");
        }
        return paused;
    }

    @Test
    void pausesFor50MsDoublingUpTo1sAndStartsOverAfterAnAccept() {
        assertTrue(server.config().isAutoRead());
        long[] pauses = new long[7];
        for (int i = 0; i < pauses.length; i++) {
            pauses[i] = failAndMeasurePause();
        }
        assertEquals(List.of(50L, 100L, 200L, 400L, 800L, 1000L, 1000L), java.util.Arrays.stream(pauses).boxed().toList());

        server.writeInbound("an accepted connection");
        assertEquals("an accepted connection", server.readInbound(), "passed on to the acceptor");
        assertEquals(50, failAndMeasurePause(), "a successful accept resets the delay");
        server.checkException(); // nothing reached the pipeline's tail: the acceptor does not pause too
    }

    @Test
    void warnsAtMostOnceEvery10sWithTheNumberOfFailuresInBetween() {
        failAndMeasurePause();
        for (int i = 0; i < 5; i++) {
            failAndMeasurePause();
        }
        assertEquals(1, logged.list.size(), "one warning for six failures within 10 s");
        ILoggingEvent first = logged.list.get(0);
        assertEquals(Level.WARN, first.getLevel());
        assertEquals("cluster web: accepting a connection failed (java.io.IOException: accept(..) failed: "
                + "Too many open files); not accepting for 50 ms", first.getFormattedMessage());

        advance(10_000);
        failAndMeasurePause();
        assertEquals(2, logged.list.size());
        assertTrue(logged.list.get(1).getFormattedMessage().endsWith(
                "not accepting for 1000 ms (5 more failures since the last warning)"),
                logged.list.get(1).getFormattedMessage());
    }

    @Test
    void aFailureWhilePausedDoesNotExtendThePause() {
        server.pipeline().fireExceptionCaught(EMFILE);
        advance(30);
        server.pipeline().fireExceptionCaught(EMFILE);
        assertFalse(server.config().isAutoRead());
        advance(20);
        assertTrue(server.config().isAutoRead(), "resumed 50 ms after the first failure");
    }
}
