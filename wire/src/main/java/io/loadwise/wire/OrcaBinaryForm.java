package io.loadwise.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The BIN form of the ORCA header: {@code BIN <base64 of a serialized xds.data.orca.v3.OrcaLoadReport>},
 * as Envoy's ORCA parser reads it. Written and read by hand with the protobuf wire format (doubles are
 * 64-bit little-endian, maps are repeated entries of key 1 and value 2), so the wire module stays free of
 * dependencies; {@code OrcaBinaryFormProtobufTest} in the agent checks the bytes with the real generated
 * classes.
 *
 * <p>Field numbers of {@code orca_load_report.proto}: 1 {@code cpu_utilization}, 2 {@code mem_utilization},
 * 3 {@code rps} (deprecated integer), 4 {@code request_cost}, 5 {@code utilization}, 6 {@code rps_fractional},
 * 7 {@code eps}, 8 {@code named_metrics}, 9 {@code application_utilization}.
 */
final class OrcaBinaryForm {

    private static final String[] DOUBLE_FIELDS = {
        null, "cpu_utilization", "mem_utilization", null, null, null, "rps_fractional", "eps", null,
        "application_utilization",
    };
    private static final String[] MAP_FIELDS = {
        null, null, null, null, "request_cost", "utilization", null, null, "named_metrics", null,
    };
    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int LENGTH_DELIMITED = 2;
    private static final int FIXED32 = 5;

    private OrcaBinaryForm() {
    }

    /** Base64 of the report holding {@code count} pairs; keys are ORCA keys, {@code map.key} for map entries. */
    static String encode(String[] keys, double[] values, int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        for (int i = 0; i < count; i++) {
            int dot = keys[i].indexOf('.');
            if (dot < 0) {
                writeDouble(out, fieldNumber(DOUBLE_FIELDS, keys[i]), values[i]);
                continue;
            }
            byte[] key = keys[i].substring(dot + 1).getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream entry = new ByteArrayOutputStream(key.length + 16);
            writeTag(entry, 1, LENGTH_DELIMITED);
            writeVarint(entry, key.length);
            entry.writeBytes(key);
            writeDouble(entry, 2, values[i]);
            writeTag(out, fieldNumber(MAP_FIELDS, keys[i].substring(0, dot)), LENGTH_DELIMITED);
            writeVarint(out, entry.size());
            out.writeBytes(entry.toByteArray());
        }
        return Base64.getEncoder().encodeToString(out.toByteArray());
    }

    private static int fieldNumber(String[] fields, String name) {
        for (int i = 0; i < fields.length; i++) {
            if (name.equals(fields[i])) {
                return i;
            }
        }
        throw new IllegalArgumentException("no OrcaLoadReport field " + name);
    }

    private static void writeDouble(ByteArrayOutputStream out, int field, double value) {
        writeTag(out, field, FIXED64);
        long bits = Double.doubleToLongBits(value);
        for (int i = 0; i < 8; i++) {
            out.write((int) (bits >>> (8 * i)));
        }
    }

    private static void writeTag(ByteArrayOutputStream out, int field, int wireType) {
        writeVarint(out, (long) field << 3 | wireType);
    }

    private static void writeVarint(ByteArrayOutputStream out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) (value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.write((int) value);
    }

    /** Decodes the base64 text after {@code BIN}; unknown fields are skipped, as protobuf readers do. */
    static Map<String, Double> parse(String base64) throws MalformedLoadReportException {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new MalformedLoadReportException("Load report in BIN form is not valid base64: " + e.getMessage(), e);
        }
        Map<String, Double> out = new LinkedHashMap<>();
        Reader in = new Reader(bytes, 0, bytes.length);
        while (in.more()) {
            long tag = in.varint();
            int wireType = (int) (tag & 7);
            long field = tag >>> 3;
            String name = field < DOUBLE_FIELDS.length ? DOUBLE_FIELDS[(int) field] : null;
            String map = field < MAP_FIELDS.length ? MAP_FIELDS[(int) field] : null;
            if (name != null) {
                in.expect(name, wireType, FIXED64);
                OrcaLoadReport.put(out, name, in.fixed64());
            } else if (map != null) {
                in.expect(map, wireType, LENGTH_DELIMITED);
                Reader entry = in.slice();
                mapEntry(out, map, entry);
            } else if (field == 3) {
                in.expect("rps", wireType, VARINT);
                long rps = in.varint();
                OrcaLoadReport.put(out, "rps", rps < 0 ? Math.pow(2, 64) + rps : rps);
            } else if (field == 0) {
                throw new MalformedLoadReportException("Load report in BIN form has field number 0");
            } else {
                in.skip(wireType);
            }
        }
        return out;
    }

    private static void mapEntry(Map<String, Double> out, String map, Reader entry) throws MalformedLoadReportException {
        String key = "";
        double value = 0; // proto3 defaults for an entry that leaves one out
        while (entry.more()) {
            long tag = entry.varint();
            int wireType = (int) (tag & 7);
            if (tag >>> 3 == 1) {
                entry.expect(map + " key", wireType, LENGTH_DELIMITED);
                key = entry.utf8();
            } else if (tag >>> 3 == 2) {
                entry.expect(map + " value", wireType, FIXED64);
                value = entry.fixed64();
            } else {
                entry.skip(wireType);
            }
        }
        OrcaLoadReport.put(out, map + "." + key, value);
    }

    /** A bounds-checked cursor over {@code bytes[position, limit)}. */
    private static final class Reader {

        private final byte[] bytes;
        private int position;
        private final int limit;

        Reader(byte[] bytes, int position, int limit) {
            this.bytes = bytes;
            this.position = position;
            this.limit = limit;
        }

        boolean more() {
            return position < limit;
        }

        long varint() throws MalformedLoadReportException {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                need(1);
                int b = bytes[position++];
                value |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw new MalformedLoadReportException("Load report in BIN form has a varint longer than 10 bytes");
        }

        double fixed64() throws MalformedLoadReportException {
            need(8);
            long bits = 0;
            for (int i = 0; i < 8; i++) {
                bits |= (bytes[position + i] & 0xFFL) << (8 * i);
            }
            position += 8;
            return Double.longBitsToDouble(bits);
        }

        Reader slice() throws MalformedLoadReportException {
            int length = length();
            Reader slice = new Reader(bytes, position, position + length);
            position += length;
            return slice;
        }

        String utf8() throws MalformedLoadReportException {
            Reader text = slice();
            try {
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(bytes, text.position, text.limit - text.position)).toString();
            } catch (CharacterCodingException e) {
                throw new MalformedLoadReportException("Load report in BIN form has a map key that is not UTF-8", e);
            }
        }

        void skip(int wireType) throws MalformedLoadReportException {
            switch (wireType) {
                case VARINT -> varint();
                case FIXED64 -> skipBytes(8);
                case LENGTH_DELIMITED -> slice();
                case FIXED32 -> skipBytes(4);
                default -> throw new MalformedLoadReportException("Load report in BIN form has wire type " + wireType
                        + ", which a proto3 OrcaLoadReport never uses");
            }
        }

        void expect(String field, int wireType, int expected) throws MalformedLoadReportException {
            if (wireType != expected) {
                throw new MalformedLoadReportException("Load report in BIN form has " + field + " with wire type "
                        + wireType + ", expected " + expected);
            }
        }

        private int length() throws MalformedLoadReportException {
            long length = varint();
            if (length < 0 || length > limit - position) {
                throw new MalformedLoadReportException("Load report in BIN form is truncated: a field of " + length
                        + " bytes with " + (limit - position) + " left");
            }
            return (int) length;
        }

        private void skipBytes(int count) throws MalformedLoadReportException {
            need(count);
            position += count;
        }

        private void need(int count) throws MalformedLoadReportException {
            if (limit - position < count) {
                throw new MalformedLoadReportException("Load report in BIN form is truncated at byte " + position);
            }
        }
    }
}
