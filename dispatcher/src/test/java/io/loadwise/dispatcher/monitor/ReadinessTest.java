package io.loadwise.dispatcher.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Issue 32, item 0: which answers of a node's agent path say that its application serves. */
class ReadinessTest {

    @ParameterizedTest(name = "{0}, gated {1}: {2}")
    @CsvSource({
            // an agent answered on the node, or its cluster has a health check: only the agent readmits
            "200, true, READY",
            "401, true, READY", // the agent refused the poll's secret: it runs, and the application with it
            "404, true, NOT_READY", // the container answers for an application it has not deployed yet
            "503, true, NOT_READY", // the container (or WildFly's suspend) while deploying or stopping
            "302, true, NOT_READY", // a login page, a redirect to the welcome page: not the agent
            "204, true, NOT_READY",
            "500, true, NOT_READY",
            // nothing has ever said more than the server's answer: as before readiness existed
            "200, false, READY",
            "302, false, READY",
            "401, false, READY",
            "404, false, READY", // the path of an agent the node does not have
            "503, false, NOT_READY",
            "500, false, NOT_READY",
            "400, false, NOT_READY",
    })
    void whatAnAnswerSays(int status, boolean gated, Readiness expected) {
        assertEquals(expected, Readiness.of(status, gated));
    }

    @ParameterizedTest
    @CsvSource({"404, true", "503, true", "500, false", "401, false", "302, false", "200, false"})
    void whichAnswersOfAnAgentThatServedSayItsApplicationWentAway(int status, boolean gone) {
        if (gone) {
            assertTrue(Readiness.applicationGone(status));
        } else {
            assertFalse(Readiness.applicationGone(status));
        }
    }
}
