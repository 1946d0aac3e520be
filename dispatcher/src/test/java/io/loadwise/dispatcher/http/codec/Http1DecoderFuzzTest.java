package io.loadwise.dispatcher.http.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderResultProvider;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * Fuzz targets of the HTTP/1.1 head and body path on both sides of the proxy: the client's requests
 * ({@link RequestDecoder}) and the nodes' responses ({@link ResponseDecoder}), fed in two writes split where
 * the fuzzer says. Contract: every message out is a head, body pieces and a last content, or a refusal
 * whose cause is a {@link BadMessage} with a 4xx/5xx status and a reason; nothing follows a refusal; a
 * fixed-length body never delivers more bytes than its head announced; no other exception escapes.
 * Seeds: {@code Http1DecoderFuzzTestInputs/}. Dictionary entries spell CR and LF as libFuzzer escapes
 * ({@code \x0D\x0A}): raw line ends break its dictionary file.
 */
class Http1DecoderFuzzTest {

    @FuzzTest(maxDuration = "15s")
    @DictionaryEntries({"GET ", "POST ", "CONNECT ", " HTTP/1.1\\x0D\\x0A", " HTTP/1.0\\x0D\\x0A", "Host: x\\x0D\\x0A",
        "Transfer-Encoding: chunked\\x0D\\x0A", "Transfer-Encoding: ", "Content-Length: ", "Connection: ", "Upgrade: ",
        "\\x0D\\x0A\\x0D\\x0A", "\\x0D\\x0A", "\\x0A", "0\\x0D\\x0A\\x0D\\x0A", ";ext=1", "ffffffff", "100000005", "chunked, identity", ", "})
    void request(FuzzedDataProvider data) {
        ArrayDeque<HttpMethod> methods = new ArrayDeque<>();
        EmbeddedChannel channel = new EmbeddedChannel(new RequestDecoder(2048, methods));
        try {
            feed(channel, data);
            checkStream(channel, true);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @FuzzTest(maxDuration = "15s")
    @DictionaryEntries({"HTTP/1.1 200 OK\\x0D\\x0A", "HTTP/1.1 101 Switching Protocols\\x0D\\x0A", "HTTP/1.1 100 Continue\\x0D\\x0A",
        "HTTP/1.0 204 No Content\\x0D\\x0A", "Transfer-Encoding: chunked\\x0D\\x0A", "Content-Length: ", "\\x0D\\x0A\\x0D\\x0A", "\\x0D\\x0A",
        "0\\x0D\\x0A\\x0D\\x0A", "100000002", "endpoint-load-metrics: TEXT a=1\\x0D\\x0A"})
    void response(FuzzedDataProvider data) {
        ResponseDecoder decoder = new ResponseDecoder(2048);
        decoder.expectResponseTo(data.consumeBoolean());
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        try {
            feed(channel, data);
            channel.finish(); // a close ends a body read until close
            checkStream(channel, false);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    private static void feed(EmbeddedChannel channel, FuzzedDataProvider data) {
        byte[] bytes = data.consumeRemainingAsBytes();
        int split = bytes.length == 0 ? 0 : Math.floorMod(bytes.length * 31 + bytes[0], bytes.length + 1);
        channel.writeInbound(Unpooled.wrappedBuffer(bytes, 0, split));
        channel.writeInbound(Unpooled.wrappedBuffer(bytes, split, bytes.length - split));
        channel.checkException();
    }

    /** Walks what came out: heads, bodies and refusals in a legal order. */
    private static void checkStream(EmbeddedChannel channel, boolean requests) {
        boolean refused = false;
        boolean inBody = false;
        long announced = -1;
        long delivered = 0;
        Object msg;
        while ((msg = channel.readInbound()) != null) {
            try {
                if (!(msg instanceof HttpObject)) {
                    continue; // the raw bytes after a protocol switch, passed on when the decoder leaves
                }
                assertFalse(refused, "a message after a refusal: " + msg);
                if (((DecoderResultProvider) msg).decoderResult().isFailure()) {
                    BadMessage bad = assertInstanceOf(BadMessage.class, ((DecoderResultProvider) msg).decoderResult().cause());
                    assertTrue(bad.status().code() >= 400 && bad.status().code() < 600);
                    assertFalse(bad.reason() == null || bad.reason().isBlank());
                    refused = true;
                } else if (msg instanceof HttpRequest || msg instanceof HttpResponse) {
                    assertFalse(inBody, "a head inside a body");
                    assertTrue(requests ? msg instanceof ProxiedRequest : msg instanceof HttpResponse);
                    if (msg instanceof ProxiedRequest request) {
                        announced = request.chunked() ? -1 : request.bodyLength();
                    } else {
                        announced = -1;
                    }
                    delivered = 0;
                    inBody = true;
                } else if (msg instanceof HttpContent content) {
                    assertTrue(inBody, "body bytes without a head");
                    delivered += content.content().readableBytes();
                    if (announced >= 0) {
                        assertTrue(delivered <= announced, "more body than Content-Length");
                    }
                    if (content instanceof LastHttpContent) {
                        if (announced >= 0) {
                            assertEquals(announced, delivered, "a fixed body ended short");
                        }
                        inBody = false;
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }
}
