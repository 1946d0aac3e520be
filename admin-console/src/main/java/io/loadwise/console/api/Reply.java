package io.loadwise.console.api;

/**
 * What a handler answers: a status, a body serialised as JSON ({@code null} for none) and, for 201, the
 * new resource's location.
 */
record Reply(int status, Object body, String location) {

    static Reply ok(Object body) {
        return new Reply(200, body, null);
    }

    static Reply created(String location, Object body) {
        return new Reply(201, body, location);
    }

    static Reply noContent() {
        return new Reply(204, null, null);
    }
}
