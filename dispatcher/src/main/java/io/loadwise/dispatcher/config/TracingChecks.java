package io.loadwise.dispatcher.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;

/** The checks of {@code tracing} for {@link ConfigValidator}. */
final class TracingChecks {

    private TracingChecks() {
    }

    static void check(TracingConfig tracing, List<String> errors) {
        if (tracing == null) {
            return;
        }
        String endpoint = tracing.otlpEndpoint();
        if (endpoint == null || endpoint.isBlank()) {
            errors.add("tracing.otlpEndpoint: missing (the collector's OTLP/HTTP URL, e.g. http://collector:4318)");
        } else {
            String problem = endpointProblem(endpoint);
            if (problem != null) {
                errors.add("tracing.otlpEndpoint: " + problem);
            }
        }
        Double ratio = tracing.sampleRatio();
        if (ratio != null && !(ratio >= 0 && ratio <= 1)) {
            errors.add("tracing.sampleRatio: " + ratio + " is not between 0 and 1");
        }
    }

    private static String endpointProblem(String endpoint) {
        URI uri;
        try {
            uri = new URI(endpoint);
        } catch (URISyntaxException e) {
            return "not a URL: " + e.getReason();
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
            return "'" + endpoint + "' is not an http:// or https:// URL";
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            return "'" + endpoint + "' names no host";
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            return "'" + endpoint + "' has a query, fragment or user info; give the base URL (/v1/traces is added)";
        }
        return null;
    }
}
