package io.loadwise.node;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the port out of a child's ready line ({@code LOADWISE_NODE_READY port=8081 route=VCN1}). */
final class ReadyLine {

    private static final Pattern PORT = Pattern.compile("\\bport=(\\d+)\\b");

    private ReadyLine() {
    }

    static int port(String line) {
        Matcher m = PORT.matcher(line);
        if (!m.find()) {
            throw new IllegalStateException("ready line without port=N: '" + line + "'");
        }
        return Integer.parseInt(m.group(1));
    }
}
