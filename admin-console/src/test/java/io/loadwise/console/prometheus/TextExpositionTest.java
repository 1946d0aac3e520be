package io.loadwise.console.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.metrics.LatencyHistogram;
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

    /** Issue 33 item 4: a bucket's last traced request, in OpenMetrics only; ids are never written unchecked. */
    @Test
    void bucketsCarryTheirExemplarsInOpenMetricsOnly() {
        TextExposition out = new TextExposition();
        out.family("d_seconds", TextExposition.Type.HISTOGRAM, "D");
        LatencyHistogram.Exemplar[] exemplars = {
            new LatencyHistogram.Exemplar("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", 0.007,
                    1_764_338_229_117L),
            null,
            new LatencyHistogram.Exemplar("4bf92f3577b34da6a3ce929d0e0e4736\"} 1", "00f067aa0ba902b7", 3, 1L)};
        out.histogram("d_seconds", new double[] {0.01, 1}, new long[] {1, 1, 2}, exemplars, 3.007, "node", "a");
        assertEquals("""
                # HELP d_seconds D
                # TYPE d_seconds histogram
                d_seconds_bucket{node="a",le="0.01"} 1 # {trace_id="4bf92f3577b34da6a3ce929d0e0e4736",\
                span_id="00f067aa0ba902b7"} 0.007 1764338229.117
                d_seconds_bucket{node="a",le="1"} 1
                d_seconds_bucket{node="a",le="+Inf"} 2
                d_seconds_sum{node="a"} 3.007
                d_seconds_count{node="a"} 2
                # EOF
                """, out.render(true));
        assertFalse(out.render(false).contains("trace_id"), "the 0.0.4 format has no exemplars");
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
