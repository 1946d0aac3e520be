package io.loadwise.bench.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JtlSummaryTest {

    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
            + "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n";

    @TempDir
    Path dir;

    @Test
    void countsSamplesFailuresAndPercentilesAsJMeterWroteThem() throws IOException {
        StringBuilder jtl = new StringBuilder(HEADER);
        for (int i = 1; i <= 100; i++) { // elapsed 1..100 ms, one sample every 10 ms from t=1000
            jtl.append(1000 + i * 10L).append(',').append(i).append(",scenario,200,OK,t 1-1,text,true,,570,118,1,1,"
                    + "http://127.0.0.1:1/trade/scenario,").append(i).append(",0,0\n");
        }
        // failures: a quoted message with a comma, and one whose failure message spans two lines
        jtl.append("3000,5,scenario,503,\"Service Unavailable, try later\",t 1-1,text,false,,10,118,1,1,u,5,0,0\n");
        jtl.append("3010,7,scenario,Non HTTP response code: java.net.SocketException,Non HTTP response message: x,"
                + "t 1-1,text,false,\"line one\nline two\",10,118,1,1,u,0,0,0\n");
        Path file = dir.resolve("out.jtl");
        Files.writeString(file, jtl);

        JtlSummary summary = JtlSummary.read(file);

        assertEquals(102, summary.samples());
        assertEquals(2, summary.failed());
        assertEquals(Map.of("503", 1L, "Non HTTP response code: java.net.SocketException", 1L),
                summary.failuresByCode());
        assertEquals(1010, summary.firstStartMs());
        assertEquals(3017, summary.lastEndMs());
        assertEquals(49, summary.p50Ms());
        assertEquals(90, summary.p90Ms());
        assertEquals(100, summary.maxMs());
        assertEquals((5050 + 5 + 7) / 102.0, summary.meanMs(), 1e-9);
        assertEquals(100 / 2.007, summary.completedPerSecond(), 1e-6);
        assertEquals(200.0 / 102, summary.failedPercent(), 1e-9);
    }

    @Test
    void anEmptyRunHasNoSamples() throws IOException {
        Path file = dir.resolve("empty.jtl");
        Files.writeString(file, HEADER);
        JtlSummary summary = JtlSummary.read(file);
        assertEquals(0, summary.samples());
        assertEquals(0, summary.throughput());
    }

    @Test
    void aFileWithoutTheSuccessColumnIsRejectedByName() throws IOException {
        Path file = dir.resolve("xml.jtl");
        Files.writeString(file, "timeStamp,elapsed,responseCode\n1,2,200\n");
        IOException e = assertThrows(IOException.class, () -> JtlSummary.read(file));
        assertTrue(e.getMessage().contains("no 'success' column"), e.getMessage());
    }

    @Test
    void aTruncatedLineIsAnErrorWithItsLineNumber() throws IOException {
        Path file = dir.resolve("cut.jtl");
        Files.writeString(file, HEADER + "1000,5,scenario,200\n");
        IOException e = assertThrows(IOException.class, () -> JtlSummary.read(file));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    }
}
