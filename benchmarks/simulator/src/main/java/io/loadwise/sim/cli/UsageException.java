package io.loadwise.sim.cli;

/** A bad command line: the message says which option and why; commands print it and exit with 2. */
public final class UsageException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
