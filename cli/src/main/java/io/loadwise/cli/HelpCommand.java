package io.loadwise.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code help [COMMAND]}: the same text as {@code --help} of the parent command, or of one of its
 * sub-commands. Hidden from the command list; {@link Cli#execute} answers it.
 */
@Command(name = "help", hidden = true, description = "Show the help of this program or of one of its commands.")
public final class HelpCommand {

    @Parameters(arity = "0..1", paramLabel = "COMMAND", description = "the command whose help to show")
    String command;
}
