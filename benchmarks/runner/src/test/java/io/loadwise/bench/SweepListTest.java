package io.loadwise.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** --policies and --scenarios lists: names fold to lower case, a row's policy options keep their camelCase. */
class SweepListTest {

    @Test
    void rowsFoldToLowerCaseButTheirOptionNamesDoNot() {
        assertEquals(List.of("http-adaptive", "http-adaptive+gcTimeThreshold=25+oldGenThreshold=90", "tcp-random"),
                SweepCommand.list(" HTTP-Adaptive , HTTP-adaptive+gcTimeThreshold=25+oldGenThreshold=90,,TCP-RANDOM"));
    }
}
