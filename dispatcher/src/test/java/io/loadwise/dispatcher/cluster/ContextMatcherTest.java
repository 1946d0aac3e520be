package io.loadwise.dispatcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ContextMatcherTest {

    private final ContextMatcher matcher = new ContextMatcher(List.of("/app", "/", "/shop/api", "/shop"));

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "none", value = {
        "/app, /app",
        "/app/, /app",
        "/app/x/y, /app",
        "/app?x=1, /app",
        "/app;jsessionid=1, /app",
        "/application, /",
        "/shop/api/cart, /shop/api",
        "/shop/apis, /shop",
        "/shop, /shop",
        "/, /",
        "/x, /",
        "'*', none",
        "http://h/app, none",
        "/app/../x, none",
        "/app/%2E%2e/x, none",
        "/app/./x, none",
        "/app/.., none",
        "/app/x?y=/../z, /app",
        "/app/..x, /app",
    })
    void longestSegmentPrefixWins(String target, String expected) {
        int i = matcher.match(target);
        assertEquals(expected, i < 0 ? null : matcher.contexts().get(i));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"/app", "/app/x", "/app?q"})
    void withoutRootNothingElseMatches(String target) {
        ContextMatcher only = new ContextMatcher(List.of("/app"));
        assertEquals(0, only.match(target));
        assertEquals(-1, only.match("/other" + target));
    }
}
