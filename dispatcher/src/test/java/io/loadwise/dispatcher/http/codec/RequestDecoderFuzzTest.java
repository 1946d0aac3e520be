package io.loadwise.dispatcher.http.codec;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpMethod;
import java.util.ArrayDeque;

/**
 * Fuzz target of the client side's {@link RequestDecoder}; the contract is {@link DecoderFuzzing}'s.
 * Seeds: {@code RequestDecoderFuzzTestInputs/request/}. Dictionary entries spell CR and LF as libFuzzer
 * escapes ({@code \x0D\x0A}): raw line ends break its dictionary file.
 */
class RequestDecoderFuzzTest {

    @FuzzTest(maxDuration = "15s")
    @DictionaryEntries({"GET ", "POST ", "CONNECT ", " HTTP/1.1\\x0D\\x0A", " HTTP/1.0\\x0D\\x0A", "Host: x\\x0D\\x0A",
        "Transfer-Encoding: chunked\\x0D\\x0A", "Transfer-Encoding: ", "Content-Length: ", "Connection: ", "Upgrade: ",
        "\\x0D\\x0A\\x0D\\x0A", "\\x0D\\x0A", "\\x0A", "0\\x0D\\x0A\\x0D\\x0A", ";ext=1", "ffffffff", "100000005", "chunked, identity", ", "})
    void request(FuzzedDataProvider data) {
        ArrayDeque<HttpMethod> methods = new ArrayDeque<>();
        EmbeddedChannel channel = new EmbeddedChannel(new RequestDecoder(2048, methods));
        try {
            DecoderFuzzing.feed(channel, data);
            DecoderFuzzing.checkStream(channel, true);
        } finally {
            channel.finishAndReleaseAll();
        }
    }
}
