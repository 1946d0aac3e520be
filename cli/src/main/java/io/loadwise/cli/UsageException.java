package io.loadwise.cli;

/**
 * A command line that parsed but asks for something impossible ({@code --speeds} with fewer values than
 * {@code --nodes}, say). The message names the option; {@link Cli#execute} prints it as a usage error and
 * returns {@link ExitCode#USAGE}.
 */
public class UsageException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
