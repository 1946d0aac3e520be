package io.loadwise.dispatcher.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzz target of the path normalisation routes are matched with. Its contract: any path either is refused
 * (null) or comes out in a form that normalising again leaves alone, that starts with one {@code /}, holds no
 * empty, {@code .} or {@code ..} segment, no path parameter and no escape of an unreserved character; and no
 * separator appears that was not one ({@code %2F} and {@code %5C} stay escapes).
 */
class RequestPathFuzzTest {

    @FuzzTest(maxDuration = "15s")
    @DictionaryEntries({"/", "//", "/./", "/../", "..", ";", "%2e", "%2E", "%2f", "%2F", "%5c", "%5C", "%61", "%",
        "%zz", "\\", "?", "/admin", ";jsessionid=ab"})
    void normalise(String raw) {
        if (raw == null) {
            return; // the fuzzer's null; a request path is never null
        }
        RequestPath p = RequestPath.of(raw);
        if (p == null) {
            return;
        }
        String match = p.match();
        assertEquals(match, RequestPath.matchForm(match), "not idempotent: " + raw);
        assertEquals(p.forward(), RequestPath.of(p.forward()).forward(), "forward form not idempotent: " + raw);
        assertTrue(match.startsWith("/"), raw);
        assertFalse(match.contains("//"), raw);
        assertFalse(match.contains(";"), raw);
        assertFalse(match.contains("\\"), raw);
        for (String segment : match.substring(1).split("/", -1)) {
            assertFalse(segment.equals(".") || segment.equals(".."), "dot segment left: " + raw + " -> " + match);
        }
        long slashesIn = raw.chars().filter(c -> c == '/').count();
        long slashesOut = match.chars().filter(c -> c == '/').count();
        assertTrue(slashesOut <= Math.max(1, slashesIn), "a separator appeared: " + raw + " -> " + match);
        for (int i = 0; i + 2 < match.length(); i++) {
            if (match.charAt(i) == '%') {
                int decoded = Integer.parseInt(match.substring(i + 1, i + 3), 16);
                boolean unreserved = Character.isLetterOrDigit(decoded) && decoded < 128 || "-._~".indexOf(decoded) >= 0;
                assertFalse(unreserved, "an unreserved escape left: " + raw + " -> " + match);
            }
        }
    }
}
