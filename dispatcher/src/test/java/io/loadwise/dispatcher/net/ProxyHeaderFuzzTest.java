package io.loadwise.dispatcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.loadwise.dispatcher.net.ProxyProtocolSettings.Accept;
import io.loadwise.dispatcher.net.ProxyProtocolStats.Refusal;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Fuzz target of the PROXY header handling, trusted and untrusted, the bytes cut into reads where the fuzzer
 * says. Its contract: the connection ends in exactly one outcome (a header accepted and the handler gone, a
 * refusal counted and the connection closed, or still waiting for bytes), nothing reaches the pipeline before
 * the header from a trusted source, and every buffer is released (paranoid leak detection).
 */
class ProxyHeaderFuzzTest {

    @FuzzTest(maxDuration = "15s")
    void headerBytes(FuzzedDataProvider data) {
        boolean trusted = data.consumeBoolean();
        Accept accept = data.pickValue(Accept.values());
        ProxyProtocolStats stats = new ProxyProtocolStats();
        ProxyHeaderHandlerTest.Peer ch = new ProxyHeaderHandlerTest.Peer(
                new InetSocketAddress(trusted ? "10.0.0.5" : "192.0.2.9", 40000));
        ch.with(new ProxyHeaderHandler("fuzz", new ProxyProtocolSettings(accept,
                AddressBlock.parseAll(List.of("10.0.0.0/8")), 1_000, 64), stats, ProxyHeaderHandler.newThrottle()));
        while (data.remainingBytes() > 0 && ch.isOpen()) {
            byte[] read = data.consumeBytes(1 + data.consumeInt(0, 64));
            if (read.length == 0) {
                break;
            }
            ch.writeInbound(Unpooled.wrappedBuffer(read));
        }
        long refused = 0;
        for (Refusal r : Refusal.values()) {
            refused += stats.refusedCount(r);
        }
        long accepted = stats.acceptedCount();
        assertTrue(accepted + refused <= 1, "one outcome at most");
        if (refused == 1) {
            assertFalse(ch.isOpen(), "a refusal closes");
            assertEquals(0, stats.refusedCount(Refusal.TIMEOUT));
            assertEquals(trusted ? 0 : 1, stats.refusedCount(Refusal.UNTRUSTED));
        }
        if (trusted && accepted == 0) {
            assertTrue(ch.seen.isEmpty(), "bytes reached the pipeline before a header: " + ch.seen);
            assertFalse(ch.activeSeen);
        }
        if (accepted == 1) {
            assertTrue(trusted);
            assertTrue(ch.activeSeen);
        }
        ch.finishAndReleaseAll();
    }
}
