package io.loadwise.console.prometheus;

import java.util.Locale;

/**
 * Content negotiation of {@code GET /metrics}: OpenMetrics 1.0 when the {@code Accept} header ranks
 * {@code application/openmetrics-text} (version 1.0.0 or none) at least as high as {@code text/plain}, as
 * Prometheus' default scrape does ({@code application/openmetrics-text;version=1.0.0,...,text/plain;
 * version=0.0.4;q=0.5,...}); the text format otherwise, and for a missing or unreadable header.
 */
public final class ExpositionFormat {

    private ExpositionFormat() {
    }

    public static boolean prefersOpenMetrics(String accept) {
        if (accept == null || accept.length() > 4096) {
            return false;
        }
        double openMetrics = -1;
        double text = -1;
        for (String range : accept.split(",")) {
            String[] parts = range.split(";", -1);
            String type = parts[0].trim().toLowerCase(Locale.ROOT);
            double q = 1;
            String version = null;
            for (int i = 1; i < parts.length; i++) {
                String[] kv = parts[i].split("=", 2);
                String key = kv[0].trim().toLowerCase(Locale.ROOT);
                String value = kv.length > 1 ? kv[1].trim() : "";
                if (key.equals("q")) {
                    try {
                        q = Double.parseDouble(value);
                    } catch (NumberFormatException e) {
                        q = 0; // an unreadable weight counts as refused, as RFC 9110 would have it ignored
                    }
                } else if (key.equals("version")) {
                    version = value;
                }
            }
            if (type.equals("application/openmetrics-text") && (version == null || version.equals("1.0.0"))) {
                openMetrics = Math.max(openMetrics, q);
            } else if (type.equals("text/plain") || type.equals("*/*") || type.equals("text/*")) {
                text = Math.max(text, q);
            }
        }
        return openMetrics > 0 && openMetrics >= text;
    }
}
