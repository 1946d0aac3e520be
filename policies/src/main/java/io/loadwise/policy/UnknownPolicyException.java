package io.loadwise.policy;

import java.util.Collection;

/** Thrown when a configuration names a policy id that no registered policy has. */
public final class UnknownPolicyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String id;

    public UnknownPolicyException(String id, Collection<String> known) {
        super("unknown policy '" + id + "', known policies: " + String.join(", ", known));
        this.id = id;
    }

    public String id() {
        return id;
    }
}
