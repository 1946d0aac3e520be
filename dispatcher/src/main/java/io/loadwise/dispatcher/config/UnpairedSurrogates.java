package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Finds text that UTF-8 cannot hold: half of a UTF-16 surrogate pair, as a JSON {@code \ud800} escape
 * without its partner sends. Jackson accepts it, but the configuration file is written as UTF-8, where it
 * becomes {@code ?}: the value read back after a restart would differ from the one validated and applied
 * (another {@code admin.dataDir}, another {@code agentPath}).
 */
final class UnpairedSurrogates {

    private UnpairedSurrogates() {
    }

    /** The path of the first text or member name under {@code node} that has one, or {@code null}. */
    static String find(JsonNode node, String path) {
        if (node.isTextual()) {
            return broken(node.textValue()) ? path : null;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String found = find(node.get(i), path + "[" + i + "]");
                if (found != null) {
                    return found;
                }
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> members = node.fields(); members.hasNext(); ) {
            Map.Entry<String, JsonNode> member = members.next();
            String at = path.isEmpty() ? member.getKey() : path + "." + member.getKey();
            String found = broken(member.getKey()) ? at : find(member.getValue(), at);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** True when {@code text} has a surrogate that is not part of a high-low pair. */
    static boolean broken(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
