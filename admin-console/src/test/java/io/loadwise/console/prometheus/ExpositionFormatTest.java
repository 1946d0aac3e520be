package io.loadwise.console.prometheus;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which exposition a scraper's {@code Accept} gets, hostile headers included. */
class ExpositionFormatTest {

    @Test
    void prometheusDefaultAndPlainOpenMetricsGetOpenMetrics() {
        assertTrue(ExpositionFormat.prefersOpenMetrics("application/openmetrics-text;version=1.0.0,"
                + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"));
        assertTrue(ExpositionFormat.prefersOpenMetrics("application/openmetrics-text"));
        assertTrue(ExpositionFormat.prefersOpenMetrics("Application/OpenMetrics-Text; Version=1.0.0; q=0.9, text/plain;q=0.9"));
    }

    @Test
    void textWhenAskedForOrRankedHigherOrUnreadable() {
        assertFalse(ExpositionFormat.prefersOpenMetrics(null));
        assertFalse(ExpositionFormat.prefersOpenMetrics(""));
        assertFalse(ExpositionFormat.prefersOpenMetrics("*/*"));
        assertFalse(ExpositionFormat.prefersOpenMetrics("text/plain;version=0.0.4"));
        assertFalse(ExpositionFormat.prefersOpenMetrics("application/openmetrics-text;q=0.4,text/plain;q=0.5"));
        assertFalse(ExpositionFormat.prefersOpenMetrics("application/openmetrics-text;q=0"));
        assertFalse(ExpositionFormat.prefersOpenMetrics("application/openmetrics-text;q=abc"));
        assertFalse(ExpositionFormat.prefersOpenMetrics("application/openmetrics-text;version=2.0.0"),
                "an OpenMetrics version we do not write");
        assertFalse(ExpositionFormat.prefersOpenMetrics(";;;,,,=;q=="));
        assertFalse(ExpositionFormat.prefersOpenMetrics("application/openmetrics-text," + "x".repeat(5000)),
                "an oversized header is not parsed");
    }
}
