package io.loadwise.dispatcher.route;

/**
 * What the route table reads of a request. The path is already in match form ({@link RequestPath#match}); the
 * authority is the absolute-form target's, else the Host header's (HTTP/2: {@code :authority}).
 */
public interface RouteRequest {

    String method();

    /** The authority as received, with its port; empty when there is none. */
    CharSequence authority();

    /** The normalised path, without query. */
    String path();

    /** The first value of a header, or null. */
    CharSequence header(CharSequence name);

    /** The raw query (after {@code ?}, without it), or null when the target has none. */
    String query();
}
