package io.loadwise.dispatcher.adversarial;

/**
 * One {@code key[.N]: value} line of a case. {@code index} is the {@code .N} suffix (a request number
 * for node keys), 0 when absent.
 */
record Directive(String key, int index, String value, int line) {

    /** The request a node check or reply is about: {@code .N}, or the first request. */
    int requestOrFirst() {
        return index == 0 ? 1 : index;
    }

    @Override
    public String toString() {
        return "line " + line + " '" + key + (index == 0 ? "" : "." + index) + ": " + value + "'";
    }
}
