package io.loadwise.console.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TextExpositionTest {

    @Test
    void familiesStayTogetherInDeclarationOrderWithEscapedLabelsAndSpecialValues() {
        TextExposition out = new TextExposition();
        out.family("b_total", TextExposition.Type.COUNTER, "B things\\counted");
        out.family("a", TextExposition.Type.GAUGE, "A");
        out.family("unused", TextExposition.Type.GAUGE, "never sampled");
        out.sample("a", 1.5, "x", "1");
        out.sample("b_total", 3, "x", "quote\" back\\slash\nnewline");
        out.sample("a", Double.NaN, "x", "2");
        out.sample("a", Double.POSITIVE_INFINITY, "x", "3");
        String text = out.render();
        assertEquals("""
                # HELP b_total B things\\\\counted
                # TYPE b_total counter
                b_total{x="quote\\" back\\\\slash\\nnewline"} 3
                # HELP a A
                # TYPE a gauge
                a{x="1"} 1.5
                a{x="2"} NaN
                a{x="3"} +Inf
                """, text);
        ExpositionParser parsed = ExpositionParser.parse(text);
        assertEquals(3, parsed.value("b_total", Map.of("x", "quote\" back\\slash\nnewline")));
        assertTrue(Double.isNaN(parsed.value("a", Map.of("x", "2"))));
        assertEquals(2, parsed.types.size(), "a family without samples is left out");
    }

    @Test
    void aSampleOfAnUndeclaredFamilyIsAProgrammingError() {
        TextExposition out = new TextExposition();
        assertThrows(IllegalArgumentException.class, () -> out.sample("nope", 1));
    }

    @Test
    void theParserRejectsWhatPrometheusWould() {
        assertThrows(IllegalArgumentException.class, () -> ExpositionParser.parse("x 1\n"));
        assertThrows(IllegalArgumentException.class, () -> ExpositionParser.parse(
                "# HELP x h\n# TYPE x gauge\nx{a=\"1} 1\n"));
        assertThrows(IllegalArgumentException.class, () -> ExpositionParser.parse(
                "# HELP x h\n# TYPE x gauge\nx 1\n# HELP y h\n# TYPE y gauge\ny 1\nx 2\n"));
    }
}
