package io.loadwise.dispatcher.route;

/** Replaces the leading segments a route matched with another prefix, keeping what follows as it is. */
public final class PathRewrite {

    private PathRewrite() {
    }

    /** How many segments a prefix has: {@code /} none, {@code /api} one, {@code /api/v1} two. */
    public static int segments(String prefix) {
        int count = 0;
        for (int i = 0; i < prefix.length(); i++) {
            if (prefix.charAt(i) == '/' && i + 1 < prefix.length()) {
                count++;
            }
        }
        return count;
    }

    /**
     * {@code path} with its first {@code segments} segments (parameters included) replaced by {@code prefix}:
     * {@code /api;x/v1} with 1 segment and prefix {@code /} is {@code /v1}; with prefix {@code /svc} it is
     * {@code /svc/v1}.
     */
    public static String replacePrefix(String path, int segments, String prefix) {
        int cut = 0;
        for (int s = 0; s < segments && cut < path.length(); s++) {
            int next = path.indexOf('/', cut + 1);
            cut = next < 0 ? path.length() : next;
        }
        String rest = path.substring(cut);
        String head = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        if (rest.isEmpty()) {
            return head.isEmpty() ? "/" : prefix;
        }
        return head + rest;
    }
}
