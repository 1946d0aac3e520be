package io.loadwise.dispatcher.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Finds the longest registered context path that a request target starts with, segment-wise: {@code /app}
 * claims {@code /app}, {@code /app/x} and {@code /app?q}, never {@code /application}; {@code /} claims every
 * path no other context claims. Matching is plain comparison on the target as received, allocation-free: a
 * percent-encoded context ({@code /%61pp}) is not the context {@code /app}. A path with a dot segment
 * ({@code /app/../admin}, also percent-encoded as {@code %2e}) matches no context: the node would resolve it
 * to a path outside the context the dispatcher matched.
 */
public final class ContextMatcher {

    /** Longest first, so the first match is the longest. */
    private final String[] contexts;

    public ContextMatcher(Collection<String> contexts) {
        List<String> sorted = new ArrayList<>(new LinkedHashSet<>(contexts));
        sorted.sort(Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()));
        this.contexts = sorted.toArray(new String[0]);
    }

    /** The contexts, longest first. */
    public List<String> contexts() {
        return List.of(contexts);
    }

    /** The index in {@link #contexts()} of the longest context {@code target} falls in, or -1. */
    public int match(String target) {
        if (target == null || hasDotSegment(target)) {
            return -1;
        }
        for (int i = 0; i < contexts.length; i++) {
            if (within(contexts[i], target)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether the path of {@code target} (up to {@code ?}) has a {@code .} or {@code ..} segment, plain or encoded. */
    static boolean hasDotSegment(String target) {
        int end = target.indexOf('?');
        if (end < 0) {
            end = target.length();
        }
        int segmentStart = -1;
        int dots = 0;
        boolean onlyDots = false;
        for (int i = 0; i <= end; i++) {
            char c = i < end ? target.charAt(i) : '/';
            if (c == '/' || c == ';') {
                if (segmentStart >= 0 && onlyDots && (dots == 1 || dots == 2)) {
                    return true;
                }
                if (c == '/') {
                    segmentStart = i + 1;
                    dots = 0;
                    onlyDots = true;
                } else {
                    onlyDots = false; // the parameters of a segment do not make it a dot segment
                    segmentStart = -1;
                }
            } else if (c == '.') {
                dots++;
            } else if (c == '%' && i + 2 < end && target.charAt(i + 1) == '2'
                    && (target.charAt(i + 2) == 'e' || target.charAt(i + 2) == 'E')) {
                dots++;
                i += 2;
            } else {
                onlyDots = false;
            }
        }
        return false;
    }

    /** Whether {@code target} (origin form, possibly with a query) lies in {@code context}. */
    public static boolean within(String context, String target) {
        if (target == null || !target.startsWith(context)) {
            return false;
        }
        if (context.length() == 1) {
            return true; // "/" claims every origin-form target
        }
        if (target.length() == context.length()) {
            return true;
        }
        char next = target.charAt(context.length());
        return next == '/' || next == '?' || next == ';';
    }
}
