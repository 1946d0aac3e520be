package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ProxyHeaders#isKeepAlive} reads the Connection field without copies; it must decide exactly as
 * Netty's {@link HttpUtil#isKeepAlive}, which it replaced, for every version and spelling.
 */
class ProxyHeadersKeepAliveTest {

    /** As the strict decoder makes them: it has checked the field values itself. */
    private static final HttpHeadersFactory UNVALIDATED = DefaultHttpHeadersFactory.headersFactory().withValidation(false);
    private static final List<List<String>> CONNECTION_FIELDS = List.of(
            List.of(), List.of("close"), List.of("keep-alive"), List.of("Close"), List.of("KEEP-ALIVE"),
            List.of(" close "), List.of("\tclose\t"), List.of("upgrade, close"), List.of("close,upgrade"),
            List.of("keep-alive, close"), List.of("x-a,keep-alive"), List.of("x-a ,  keep-alive  ,"),
            List.of(",close"), List.of(","), List.of(""), List.of("closed"), List.of("clos"), List.of("keep-alive2"),
            List.of("keep alive"), List.of("upgrade"), List.of("x-a", "close"), List.of("x-a", "keep-alive"),
            List.of("keep-alive", "close"), List.of("te, trailers"), List.of(" , ,keep-alive"),
            List.of("c\u00f8se"), List.of("\u000bclose"));

    @Test
    void decidesAsNettyForEveryVersionAndConnectionField() {
        for (HttpVersion version : List.of(HttpVersion.HTTP_1_1, HttpVersion.HTTP_1_0)) {
            for (List<String> values : CONNECTION_FIELDS) {
                for (boolean ascii : new boolean[] {true, false}) {
                    for (HttpMessage message : List.<HttpMessage>of(
                            new DefaultHttpRequest(version, HttpMethod.GET, "/", UNVALIDATED.newHeaders()),
                            new DefaultHttpResponse(version, HttpResponseStatus.OK, UNVALIDATED.newHeaders()))) {
                        for (String value : values) {
                            message.headers().add(HttpHeaderNames.CONNECTION, ascii ? new AsciiString(value) : value);
                        }
                        assertEquals(HttpUtil.isKeepAlive(message), ProxyHeaders.isKeepAlive(message),
                                version + " Connection " + values + (ascii ? " as AsciiString" : " as String"));
                    }
                }
            }
        }
    }
}
