package io.loadwise.console.api;

/** A reply body sent as it is (a PNG graph, CSV, Prometheus text) instead of being serialised as JSON. */
record RawBody(String contentType, byte[] bytes) {
}
