package io.loadwise.dispatcher.adversarial;

/**
 * A case written in Java, for what the text format cannot say: timing (slow peers), many connections,
 * a node that drips or floods. Runs in the same runner, with the same timeout.
 */
record JavaCase(String group, String name, String spec, Body body) {

    @FunctionalInterface
    interface Body {
        void run(CaseContext ctx) throws Exception;
    }

    String id() {
        return group + "/" + name;
    }
}
