package io.loadwise.cli;

import picocli.CommandLine.Option;

/**
 * {@code -h, --help}, which every command and sub-command has: {@code @Mixin HelpOption help;}, declared
 * last so that the option is listed last.
 */
public final class HelpOption {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean requested;
}
