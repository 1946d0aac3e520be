package io.loadwise.dispatcher.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 32: exactly which answers count as a node's failures, on a clock the test moves. */
class FailedAnswersTest {

    private static final int A = 0;
    private static final int B = 1;
    private static final int C = 2;

    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final FailedAnswers answers = new FailedAnswers(3);

    private void advanceMillis(long millis) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 501, 502, 503, 504, 599})
    void everyAnswerFrom500UpIsAFailure(int status) {
        assertTrue(answers.failed(A, "/trade/buy", status, now.get()));
        assertTrue(new FailedAnswers(1).failed(0, "/trade/buy", status, now.get()), "in a cluster of one too");
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 204, 301, 302, 304, 400, 401, 403, 405, 409, 410, 429})
    void noOtherAnswerIsAFailureWhateverOtherNodesServe(int status) {
        answers.failed(B, "/trade/buy", 200, now.get());
        assertFalse(answers.failed(A, "/trade/buy", status, now.get()));
    }

    @Test
    void a404IsAFailureOnlyOnAPathAnotherNodeServed() {
        assertFalse(answers.failed(A, "/trade/buy", 404, now.get()), "nobody served it: a genuine 404");
        assertFalse(answers.failed(A, "/trade/buy", 200, now.get()));
        assertFalse(answers.failed(A, "/trade/buy", 404, now.get()), "only a itself served it");
        assertFalse(answers.failed(B, "/trade/buy", 200, now.get()));
        assertTrue(answers.failed(A, "/trade/buy", 404, now.get()), "b serves it: a's application is missing");
        assertTrue(answers.failed(C, "/trade/buy?id=7", 404, now.get()), "the query is not part of the path");
        assertFalse(answers.failed(C, "/trade/sell", 404, now.get()), "another path");

    }

    @Test
    void anAnswerOtherThan2xxOr3xxDoesNotMakeAPathServed() {
        answers.failed(B, "/trade/buy", 401, now.get());
        answers.failed(B, "/trade/buy", 500, now.get());
        answers.failed(B, "/trade/buy", 404, now.get());
        assertFalse(answers.failed(A, "/trade/buy", 404, now.get()));
    }

    @Test
    void aServedPathIsRememberedForTenSeconds() {
        answers.failed(B, "/trade/quote", 200, now.get());
        advanceMillis(FailedAnswers.WINDOW_MILLIS - 10);
        assertTrue(answers.failed(A, "/trade/quote", 404, now.get()));
        advanceMillis(20);
        assertFalse(answers.failed(A, "/trade/quote", 404, now.get()), "b has not served it for over ten seconds");
    }

    @Test
    void aPathServedAgainAndAgainIsKeptFresh() {
        for (int i = 0; i < 30; i++) {
            answers.failed(B, "/trade/quote", 200, now.get());
            advanceMillis(500);
        }
        assertTrue(answers.failed(A, "/trade/quote", 404, now.get()), "served every half second for fifteen seconds");
    }

    @Test
    void aPathThatEvictedAnotherFromItsSlotDoesNotMakeTheOtherServed() {
        String first = "/p0";
        String second = null;
        int slot = FailedAnswers.pathHash(first) & (FailedAnswers.SLOTS - 1);
        for (int i = 1; second == null; i++) {
            String candidate = "/p" + i;
            if ((FailedAnswers.pathHash(candidate) & (FailedAnswers.SLOTS - 1)) == slot) {
                second = candidate;
            }
        }
        answers.failed(B, first, 200, now.get());
        answers.failed(B, second, 200, now.get()); // same slot: evicts the first
        assertTrue(answers.failed(A, second, 404, now.get()));
        assertFalse(answers.failed(A, first, 404, now.get()), "forgotten, never mistaken for the other path");
    }
}
