package io.loadwise.dispatcher.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.testsupport.Await;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class RecentRequestsTest {

    @Test
    void ringKeepsTheLastRequestsNewestFirst() {
        RecentRequests ring = new RecentRequests(3);
        assertEquals(List.of(), ring.newestFirst());
        for (int i = 0; i < 5; i++) {
            ring.add(request("/" + i));
        }
        assertEquals(List.of("/4", "/3", "/2"), ring.newestFirst().stream().map(RecentRequest::target).toList());
        assertEquals(5, ring.added());
    }

    @Test
    void writerFeedsTheRingAndFormatsOnlyWhenTheLogWantsLines() {
        List<String> lines = new CopyOnWriteArrayList<>();
        AtomicBoolean logOn = new AtomicBoolean(false);
        RecentRequests ring = new RecentRequests(10);
        AccessLogWriter writer = new AccessLogWriter(16, new LoadwiseLine(), lines::add, logOn::get, ring).start();
        AccessRecord before = record("/before");
        writer.offer(before);
        assertTrue(writer.drain(5_000));
        assertEquals(0, ring.added(), "nothing kept before keepRecentFor()");
        writer.keepRecentFor(60_000_000_000L);
        writer.offer(record("/quiet"));
        assertTrue(writer.drain(5_000));
        logOn.set(true);
        writer.offer(record("/logged"));
        assertTrue(writer.drain(5_000));
        assertEquals(List.of("/logged", "/quiet"), ring.newestFirst().stream().map(RecentRequest::target).toList());
        assertEquals(1, lines.size());
        assertTrue(lines.get(0).contains("/logged"), lines.get(0));
    }

    @Test
    void watchEndsWhenItsLeaseRunsOutAndNothingMoreIsKept() {
        RecentRequests ring = new RecentRequests(10);
        AccessLogWriter writer = new AccessLogWriter(16, new LoadwiseLine(), line -> { }, () -> false, ring).start();
        writer.keepRecentFor(60_000_000_000L);
        assertTrue(writer.keepsRecent());
        writer.offer(record("/watched"));
        assertTrue(writer.drain(5_000));
        writer.keepRecentFor(1_000_000); // a 1 ms lease, which the writer ends at its next empty poll
        Await.until("the writer ended the expired watch", () -> !writer.keepsRecent());
        writer.offer(record("/unwatched")); // an event loop that raced the end still hands it over: not kept
        assertTrue(writer.drain(5_000));
        assertEquals(List.of("/watched"), ring.newestFirst().stream().map(RecentRequest::target).toList());
    }

    @Test
    void recentRequestNamesTheForwardedClient() {
        AccessRecord r = record("/x");
        r.client = "10.0.0.1";
        r.forwardedFor = "203.0.113.9";
        r.status = 502;
        r.termination = "NH";
        RecentRequest copy = RecentRequest.of(r);
        assertEquals("203.0.113.9", copy.client());
        assertEquals(502, copy.status());
        assertEquals("NH", copy.termination());
    }

    private static RecentRequest request(String target) {
        return RecentRequest.of(record(target));
    }

    private static AccessRecord record(String target) {
        AccessRecord r = new AccessRecord();
        r.startMillis = 1_700_000_000_000L;
        r.client = "127.0.0.1";
        r.method = "GET";
        r.target = target;
        r.protocol = "HTTP/1.1";
        r.status = 200;
        r.termination = "--";
        r.node = "n1";
        return r;
    }
}
