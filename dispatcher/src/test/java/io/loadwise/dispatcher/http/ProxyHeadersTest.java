package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** This hop's {@code Forwarded} element (RFC 7239 §4, §6): how each part is written. */
class ProxyHeadersTest {

    @Test
    void anIpv4ClientOverClearTextWithAHost() {
        assertEquals("for=192.0.2.7;proto=http;host=shop.example",
                ProxyHeaders.forwardedElement("192.0.2.7", "shop.example", false));
    }

    @Test
    void anIpv6ClientIsQuotedInBracketsAndTlsIsHttps() {
        assertEquals("for=\"[2001:db8::1]\";proto=https;host=shop",
                ProxyHeaders.forwardedElement("2001:db8::1", "shop", true));
    }

    @Test
    void noHostPartWithoutAHost() {
        assertEquals("for=192.0.2.7;proto=http", ProxyHeaders.forwardedElement("192.0.2.7", null, false));
        assertEquals("for=192.0.2.7;proto=https", ProxyHeaders.forwardedElement("192.0.2.7", "", true));
    }

    @Test
    void aHostThatIsNoTokenIsQuoted() {
        assertEquals("for=192.0.2.7;proto=http;host=\"shop.example:8080\"",
                ProxyHeaders.forwardedElement("192.0.2.7", "shop.example:8080", false), "':' is no tchar");
    }
}
