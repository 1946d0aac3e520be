package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * What a request must look like to take a route; every given condition must hold. Paths are compared after
 * normalisation (see docs/routing.md), ignoring ASCII case.
 *
 * @param host exact ({@code shop.example}) or wildcard ({@code *.example.com}, one or more labels), ignoring
 *     case, port and a trailing dot
 * @param path the whole path, exactly
 * @param pathPrefix the path starts with these whole segments ({@code /api} matches {@code /api} and
 *     {@code /api/x}, not {@code /apix})
 * @param pathRegex the whole path matches this RE2 expression (linear time, no backreferences)
 * @param methods one of these methods
 * @param headers each named header is present with this exact value, or present at all for
 *     {@code {"present": true}}
 * @param query each named query parameter has this exact value, or is present for {@code {"present": true}}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RouteMatch(String host, String path, String pathPrefix, String pathRegex, List<String> methods,
        Map<String, ValueMatch> headers, Map<String, ValueMatch> query) {

    /** True when nothing is asked: the route matches every request. Not a field: the file never holds it. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isEmpty() {
        return host == null && path == null && pathPrefix == null && pathRegex == null
                && (methods == null || methods.isEmpty()) && (headers == null || headers.isEmpty())
                && (query == null || query.isEmpty());
    }

    public List<String> methodsOrEmpty() {
        return methods == null ? List.of() : methods;
    }

    public Map<String, ValueMatch> headersOrEmpty() {
        return headers == null ? Map.of() : headers;
    }

    public Map<String, ValueMatch> queryOrEmpty() {
        return query == null ? Map.of() : query;
    }
}
