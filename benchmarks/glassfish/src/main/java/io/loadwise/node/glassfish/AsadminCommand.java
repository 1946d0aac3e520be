package io.loadwise.node.glassfish;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One asadmin subcommand with its arguments, as the list of tokens it is run with.
 *
 * @param tokens subcommand name first, then options and operands
 */
record AsadminCommand(List<String> tokens) {

    AsadminCommand {
        tokens = List.copyOf(tokens);
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("an asadmin command needs at least its name");
        }
        for (String token : tokens) {
            if (token.isEmpty() || token.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
                throw new IllegalArgumentException("asadmin token must be non-empty without whitespace, got '"
                        + token + "' in " + tokens);
            }
        }
    }

    static AsadminCommand of(String... tokens) {
        return new AsadminCommand(List.of(tokens));
    }

    /**
     * The line for an {@code asadmin multimode --file}: its parser treats a backslash as an escape, so
     * backslashes and quotes are escaped once more.
     */
    String multimodeLine() {
        return tokens.stream().map(AsadminCommand::escapeForMultimode).collect(Collectors.joining(" "));
    }

    /**
     * asadmin's {@code --property} syntax: {@code name=value} pairs joined by ':', with ':', '=' and '\'
     * inside names and values escaped by a backslash.
     */
    static String propertyList(Map<String, String> properties) {
        return properties.entrySet().stream()
                .map(e -> escapeProperty(e.getKey()) + "=" + escapeProperty(e.getValue()))
                .collect(Collectors.joining(":"));
    }

    private static String escapeProperty(String text) {
        return text.replace("\\", "\\\\").replace(":", "\\:").replace("=", "\\=");
    }

    private static String escapeForMultimode(String token) {
        return token.replace("\\", "\\\\").replace("\"", "\\\"").replace("'", "\\'");
    }

    @Override
    public String toString() {
        return String.join(" ", tokens);
    }
}
