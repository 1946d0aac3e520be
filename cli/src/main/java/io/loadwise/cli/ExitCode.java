package io.loadwise.cli;

/** The exit codes of every Loadwise command, as docs/operations.md lists them. */
public final class ExitCode {

    public static final int OK = 0;
    /** An invalid configuration, a startup failure, a failed measurement or I/O. */
    public static final int FAILURE = 1;
    /** The command line does not parse, or asks for something that cannot be done. */
    public static final int USAGE = 2;

    private ExitCode() {
    }
}
