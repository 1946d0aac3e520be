package io.loadwise.dispatcher.http.codec;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * Fuzz target of the node side's {@link ResponseDecoder} (a HEAD request or not, as the fuzzer says); the
 * contract is {@link DecoderFuzzing}'s. Seeds: {@code ResponseDecoderFuzzTestInputs/response/}.
 */
class ResponseDecoderFuzzTest {

    @FuzzTest(maxDuration = "15s")
    @DictionaryEntries({"HTTP/1.1 200 OK\\x0D\\x0A", "HTTP/1.1 101 Switching Protocols\\x0D\\x0A", "HTTP/1.1 100 Continue\\x0D\\x0A",
        "HTTP/1.0 204 No Content\\x0D\\x0A", "Transfer-Encoding: chunked\\x0D\\x0A", "Content-Length: ", "\\x0D\\x0A\\x0D\\x0A", "\\x0D\\x0A",
        "0\\x0D\\x0A\\x0D\\x0A", "100000002", "endpoint-load-metrics: TEXT a=1\\x0D\\x0A"})
    void response(FuzzedDataProvider data) {
        ResponseDecoder decoder = new ResponseDecoder(2048);
        decoder.expectResponseTo(data.consumeBoolean());
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        try {
            DecoderFuzzing.feed(channel, data);
            channel.finish(); // a close ends a body read until close
            DecoderFuzzing.checkStream(channel, false);
        } finally {
            channel.finishAndReleaseAll();
        }
    }
}
