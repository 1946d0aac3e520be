package io.loadwise.sim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class WorldCupTraceReaderTest {

    /** Status indexes in the format's list: 2 = 200, 13 = 304, 19 = 404; version bits 01 = HTTP/1.0. */
    private static final int OK = 0x40 | 2;
    private static final int NOT_MODIFIED = 0x40 | 13;
    private static final int NOT_FOUND = 0x40 | 19;

    @Test
    void decodesBigEndianRecordsSizesAndDynamicType() throws IOException {
        byte[] log = records(
                record(895_000_000L, 1, 10, 4_000_000_000L, OK, 1),
                record(895_000_000L, 2, 11, 1234, OK, WorldCupTraceReader.TYPE_DYNAMIC),
                record(895_000_001L, 3, 12, 0, NOT_MODIFIED, 0),
                record(895_000_001L, 4, 13, 99, NOT_FOUND, 0));
        LoadedTrace loaded = WorldCupTraceReader.read(new ByteArrayInputStream(log), "wc_day20_1");
        Trace t = loaded.trace();
        assertEquals(3, t.size());
        assertEquals(1, loaded.excludedErrors(), "the 404 is left out and counted");
        assertEquals(4_000_000_000L, t.sizeBytes(0), "sizes are unsigned 32-bit");
        assertFalse(t.dynamic(0));
        assertTrue(t.dynamic(1));
        assertEquals(1234, t.sizeBytes(1));
        assertEquals(250_000_000L, t.arrivalNanos(0) % 1_000_000_000L, "two records in one second are spread");
        assertEquals(895_000_001L * 1_000_000_000L + 500_000_000L, t.arrivalNanos(2));
    }

    @Test
    void aTruncatedFileIsAnErrorNamingTheOffset() {
        byte[] log = records(record(895_000_000L, 1, 10, 100, OK, 1), record(895_000_000L, 1, 10, 100, OK, 1));
        byte[] cut = Arrays.copyOf(log, log.length - 3);
        EOFException e = assertThrows(EOFException.class,
                () -> WorldCupTraceReader.read(new ByteArrayInputStream(cut), "wc.bin"));
        assertTrue(e.getMessage().contains("truncated record at byte 20"), e.getMessage());
    }

    private static byte[] record(long time, int client, int object, long size, int status, int type) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt((int) time);
            out.writeInt(client);
            out.writeInt(object);
            out.writeInt((int) size);
            out.writeByte(0);
            out.writeByte(status);
            out.writeByte(type);
            out.writeByte(0);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }

    private static byte[] records(byte[]... rs) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] r : rs) {
            all.writeBytes(r);
        }
        return all.toByteArray();
    }
}
