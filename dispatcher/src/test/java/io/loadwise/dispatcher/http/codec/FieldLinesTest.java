package io.loadwise.dispatcher.http.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The bytes of header fields the proxy adds or rewrites (String values), on heap and direct buffers alike. */
class FieldLinesTest {

    @Test
    void stringValuesAreWrittenAsIso88591AndACharPast0xffBecomesAQuestionMark() {
        HttpHeaders headers = new DefaultHttpHeaders(false);
        headers.add("X-Forwarded-For", "192.0.2.7");
        headers.add("X-Name", "caf\u00e9 \u20ac\u0100"); // é is one ISO-8859-1 byte; € and Ā have none
        headers.add("Empty", "");
        byte[] expected = concat("X-Forwarded-For: 192.0.2.7\r\nX-Name: caf".getBytes(StandardCharsets.US_ASCII),
                new byte[] {(byte) 0xe9, ' ', '?', '?'}, "\r\nEmpty: \r\n".getBytes(StandardCharsets.US_ASCII));
        for (ByteBuf buf : new ByteBuf[] {Unpooled.buffer(4), PooledByteBufAllocator.DEFAULT.directBuffer(4)}) {
            try {
                buf.writeByte('>'); // a field is written at the writer index, not at 0
                FieldLines.encode(headers, buf);
                assertArrayEquals(concat(new byte[] {'>'}, expected), ByteBufUtil.getBytes(buf), buf.toString());
            } finally {
                buf.release();
            }
        }
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] p : parts) {
            length += p.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }
}
