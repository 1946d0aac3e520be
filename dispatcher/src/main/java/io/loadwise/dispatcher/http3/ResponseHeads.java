package io.loadwise.dispatcher.http3;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http3.DefaultHttp3Headers;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.util.AsciiString;
import java.util.Map;
import java.util.Set;

/**
 * An HTTP/1.1 response head (a node's, or the proxy's own) as HTTP/3 fields: {@code :status}, then every field with
 * its name in lower case (RFC 9114 §4.2), leaving out the connection-specific ones HTTP/3 forbids
 * ({@code Connection} and what it names, {@code Keep-Alive}, {@code Transfer-Encoding}, {@code Upgrade}, ...).
 */
final class ResponseHeads {

    private static final Set<AsciiString> CONNECTION_SPECIFIC = Set.of(
            AsciiString.cached("connection"), AsciiString.cached("keep-alive"),
            AsciiString.cached("proxy-connection"), AsciiString.cached("transfer-encoding"),
            AsciiString.cached("upgrade"), AsciiString.cached("te"));

    private ResponseHeads() {
    }

    static Http3Headers of(HttpResponse response) {
        Http3Headers out = new DefaultHttp3Headers(false);
        out.status(response.status().codeAsText());
        copy(response.headers(), out);
        return out;
    }

    static Http3Headers trailers(HttpHeaders trailers) {
        Http3Headers out = new DefaultHttp3Headers(false);
        copy(trailers, out);
        return out;
    }

    private static void copy(HttpHeaders in, Http3Headers out) {
        String connection = in.get(HttpHeaderNames.CONNECTION);
        Iterable<Map.Entry<CharSequence, CharSequence>> fields = in::iteratorCharSequence;
        for (Map.Entry<CharSequence, CharSequence> field : fields) {
            AsciiString name = AsciiString.of(field.getKey()).toLowerCase();
            if (CONNECTION_SPECIFIC.contains(name) || connection != null && named(connection, name)) {
                continue;
            }
            out.add(name, field.getValue());
        }
    }

    /** Whether the {@code Connection} field's list names {@code name}. */
    private static boolean named(String connection, AsciiString name) {
        for (String token : connection.split(",")) {
            if (name.contentEqualsIgnoreCase(token.trim())) {
                return true;
            }
        }
        return false;
    }
}
