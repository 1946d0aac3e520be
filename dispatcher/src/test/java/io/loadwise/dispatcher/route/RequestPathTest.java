package io.loadwise.dispatcher.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestPathTest {

    @ParameterizedTest(name = "{0} matches as {1}, forwards as {2}")
    @CsvSource(delimiter = '|', value = {
        "/admin             | /admin          | /admin",
        "/api/../admin      | /admin          | /admin",
        "//admin            | /admin          | /admin",
        "/admin;x           | /admin          | /admin;x",
        "/%61dmin           | /admin          | /admin",
        "/%2e%2e/admin      | /admin          | /admin",
        "/a/%2E/b           | /a/b            | /a/b",
        "/a/..;x/admin      | /admin          | /admin",
        "/;x/admin          | /admin          | /;x/admin",
        "/a%2F..%2Fadmin    | /a%2F..%2Fadmin | /a%2F..%2Fadmin",
        "/a%2f..%2fadmin    | /a%2F..%2Fadmin | /a%2F..%2Fadmin",
        "/a%5C..%5Cadmin    | /a%5C..%5Cadmin | /a%5C..%5Cadmin",
        "/../../etc/passwd  | /etc/passwd     | /etc/passwd",
        "/a/b/..            | /a/             | /a/",
        "/a/.               | /a/             | /a/",
        "/a//b///c/         | /a/b/c/         | /a/b/c/",
        "/                  | /               | /",
        "/..                | /               | /",
        "/%7Euser           | /~user          | /~user",
        "/caf%C3%A9         | /caf%C3%A9      | /caf%C3%A9",
        "/x;jsessionid=ab/y | /x/y            | /x;jsessionid=ab/y",
        "/a//;x/////        | /a/             | /a/;x/",
    })
    void normalises(String raw, String match, String forward) {
        RequestPath p = RequestPath.of(raw);
        assertEquals(match, p.match());
        assertEquals(forward, p.forward());
        assertEquals(match, RequestPath.matchForm(raw));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "admin", "*", "/a%", "/a%2", "/a%zz", "/a\\b", "/a b", "/caf\u00e9", "/a\u0000"})
    void refusesWhatIsNoPath(String raw) {
        assertNull(RequestPath.of(raw));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/api/v1/orders", "/a.b/c..d/.e", "/x-y_z~"})
    void aNormalPathIsTheSameString(String raw) {
        assertSame(raw, RequestPath.matchForm(raw));
        assertSame(raw, RequestPath.of(raw).forward());
    }
}
