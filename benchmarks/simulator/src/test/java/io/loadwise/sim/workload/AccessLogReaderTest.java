package io.loadwise.sim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessLogReaderTest {

    private static final String LOG = String.join("\n",
            "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif HTTP/1.0\" 200 2326",
            "10.0.0.2 - frank [10/Oct/2000:13:55:36 -0700] \"GET /cgi-bin/q HTTP/1.0\" 200 500 \"http://x/\" \"Mozilla/4.08\"",
            "this line is not a log record",
            "10.0.0.3 - - [10/Oct/2000:13:55:35 -0700] \"GET /index.php HTTP/1.1\" 200 -",
            "10.0.0.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /missing HTTP/1.1\" 404 209",
            "10.0.0.5 - - [10/Oct/2000:13:55:38 -0700] \"GET /a.html?x=1 HTTP/1.1\" 304 0 \"-\" \"curl\"",
            "");

    @Test
    void readsCommonAndCombinedRecordsInTimeOrder() throws IOException {
        LoadedTrace loaded = AccessLogReader.read(in(LOG), "test.log");
        Trace t = loaded.trace();
        assertEquals(4, t.size());
        assertEquals(1, loaded.malformed());
        assertTrue(loaded.firstMalformed().contains("test.log line 3"), loaded.firstMalformed());
        assertEquals(1, loaded.excludedErrors(), "the 404 is left out and counted");
        // sorted: 13:55:35 (php, size '-' = 0) first, then the two 13:55:36 records in log order, then :38
        assertEquals(0, t.sizeBytes(0));
        assertTrue(t.dynamic(0), ".php is dynamic");
        assertEquals(2326, t.sizeBytes(1));
        assertFalse(t.dynamic(1));
        assertEquals(500, t.sizeBytes(2));
        assertTrue(t.dynamic(2), "/cgi-bin/ is dynamic");
        assertTrue(t.dynamic(3), "a query string is dynamic");
    }

    @Test
    void spreadsRecordsThatShareASecondEvenlyOverIt() throws IOException {
        Trace t = AccessLogReader.read(in(LOG), "test.log").trace();
        long second = 1_000_000_000L;
        assertEquals(second / 2, t.arrivalNanos(0) % second, "the only record of its second sits mid-second");
        assertEquals(second / 4, t.arrivalNanos(1) % second);
        assertEquals(3 * second / 4, t.arrivalNanos(2) % second);
        assertEquals(3 * second, t.arrivalNanos(3) - t.arrivalNanos(0));
    }

    @Test
    void readsGzippedFiles(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("access.log.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(LOG.getBytes(StandardCharsets.ISO_8859_1));
        }
        assertEquals(4, AccessLogReader.read(file).trace().size());
    }

    @Test
    void aLogWithoutUsableRecordsIsAnErrorThatSaysWhy() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AccessLogReader.read(in("garbage\nmore garbage\n"), "bad.log"));
        assertTrue(e.getMessage().contains("no usable requests (2 malformed lines"), e.getMessage());
        assertTrue(e.getMessage().contains("bad.log line 1"), e.getMessage());
    }

    private static ByteArrayInputStream in(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1));
    }
}
