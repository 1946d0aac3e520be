package io.loadwise.dispatcher.config;

import io.loadwise.dispatcher.net.AddressBlock;
import io.loadwise.dispatcher.net.NodeAddress;
import java.util.List;
import java.util.Locale;

/**
 * Checks of one field each, shared by {@link ConfigValidator} and the other checks of this package; every
 * message starts with the field's path {@code at}.
 */
final class FieldChecks {

    private FieldChecks() {
    }

    static void level(String at, String level, List<String> errors) {
        if (level != null && !ConfigValidator.LOG_LEVELS.contains(level.toLowerCase(Locale.ROOT))) {
            errors.add(at + ": unknown level '" + level + "', expected one of trace, debug, info, warn, error, off");
        }
    }

    static boolean checkName(String at, String name, List<String> errors) {
        if (name == null || name.isBlank()) {
            errors.add(at + ": missing");
            return false;
        }
        if (!ConfigValidator.NAME.matcher(name).matches()) {
            errors.add(at + ": '" + ListenerChecks.printable(name)
                    + "' must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
            return false;
        }
        return true;
    }

    static Integer checkListen(String at, String listen, List<String> errors) {
        try {
            return NodeAddress.parseListen(listen).getPort();
        } catch (IllegalArgumentException e) {
            errors.add(at + ": " + e.getMessage());
            return null;
        }
    }

    static void checkTrustedProxies(String at, List<String> blocks, List<String> errors) {
        if (blocks == null) {
            return;
        }
        for (int i = 0; i < blocks.size(); i++) {
            try {
                AddressBlock.parse(blocks.get(i));
            } catch (IllegalArgumentException e) {
                errors.add(at + "[" + i + "]: " + e.getMessage());
            }
        }
    }

    static void checkPath(String at, String path, List<String> errors) {
        if (path != null && !path.startsWith("/")) {
            errors.add(at + ": '" + path + "' must start with '/'");
        }
    }

    static void positive(String at, Integer value, List<String> errors) {
        if (value != null && value <= 0) {
            errors.add(at + ": must be greater than 0 (got " + value + ")");
        }
    }

    static void range(String at, Integer value, int min, int max, List<String> errors) {
        if (value != null && (value < min || value > max)) {
            errors.add(at + ": " + value + " out of range " + min + ".." + max);
        }
    }

    static void httpOnly(String at, Object value, List<String> errors) {
        if (value != null) {
            errors.add(at + ": only allowed for mode http");
        }
    }
}
