package io.loadwise.dispatcher.http.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderResultProvider;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * What the HTTP/1.1 decoder fuzz targets check: the messages out are heads, body pieces and a last
 * content in a legal order, or one refusal carrying a {@link BadMessage} with a 4xx/5xx status and a
 * reason, after which nothing follows; a fixed-length body never delivers more or fewer bytes than its
 * head announced. Inputs arrive in two writes, split where the fuzzer says.
 */
final class DecoderFuzzing {

    private DecoderFuzzing() {
    }
    static void feed(EmbeddedChannel channel, FuzzedDataProvider data) {
        byte[] bytes = data.consumeRemainingAsBytes();
        int split = bytes.length == 0 ? 0 : Math.floorMod(bytes.length * 31 + bytes[0], bytes.length + 1);
        channel.writeInbound(Unpooled.wrappedBuffer(bytes, 0, split));
        channel.writeInbound(Unpooled.wrappedBuffer(bytes, split, bytes.length - split));
        channel.checkException();
    }

    /** Walks what came out: heads, bodies and refusals in a legal order. */
    static void checkStream(EmbeddedChannel channel, boolean requests) {
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
