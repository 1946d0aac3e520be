package io.loadwise.console.replicas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.store.Series;
import io.loadwise.console.store.SeriesCatalog;
import io.loadwise.console.store.SeriesPoints;
import io.loadwise.console.store.Window;
import io.loadwise.dispatcher.control.ReplicaInfo;
import io.loadwise.testsupport.SilentServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The replica series cache: a page of summed graphs asks each replica once per {@link PeerSeries#FRESH_NANOS},
 * a stalled replica costs its deadline once rather than once per graph, and answers go stale on time.
 */
class PeerSeriesCacheTest {

    private static final Series THROUGHPUT = SeriesCatalog.CLUSTER.find("TD_AVE_THROUGHPUT");
    private static final Series CONNECTIONS = SeriesCatalog.CLUSTER.find("TD_AVE_CONNS_ACT");

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AtomicInteger asked = new AtomicInteger();
    private HttpServer replica;
    private SilentServer stalled;
    private PeerSeries peers;

    @BeforeEach
    void start() throws Exception {
        ObjectMapper json = new ObjectMapper();
        replica = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        replica.createContext("/api/clusters/shop/series/", exchange -> {
            asked.incrementAndGet();
            String file = exchange.getRequestURI().getPath();
            Series series = SeriesCatalog.CLUSTER.find(file.substring(file.lastIndexOf('/') + 1).replace(".json", ""));
            SeriesPoints grid = SeriesPoints.unknown(Window.TEN_MINUTES, System.currentTimeMillis() / 1000);
            java.util.Arrays.fill(grid.values(), 7.0);
            byte[] body = json.writeValueAsBytes(SeriesDocument.of("shop", series, Window.TEN_MINUTES, "r2", grid));
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        replica.start();
        stalled = new SilentServer();
        peers = new PeerSeries(new PeerFigures("token", Duration.ofMillis(500), Duration.ofMillis(300)), now::get);
    }

    @AfterEach
    void stop() throws Exception {
        replica.stop(0);
        stalled.close();
    }

    private ReplicaInfo r2() {
        return new ReplicaInfo("r2", "http://127.0.0.1:" + replica.getAddress().getPort(), List.of(), "t", "t");
    }

    private ReplicaInfo r3() {
        return new ReplicaInfo("r3", "http://127.0.0.1:" + stalled.port(), List.of(), "t", "t");
    }

    @Test
    void aSeriesIsAskedOnceWhileFreshThenAgain() {
        PeerSeries.Answer first = peers.fetch(List.of(r2()), "shop", THROUGHPUT, Window.TEN_MINUTES).get(0);
        assertNull(first.problem());
        assertEquals(7.0, first.points().values()[0]);
        assertEquals(1, asked.get());

        now.addAndGet(PeerSeries.FRESH_NANOS - 1);
        assertEquals(first, peers.fetch(List.of(r2()), "shop", THROUGHPUT, Window.TEN_MINUTES).get(0), "reused");
        assertEquals(1, asked.get(), "not asked again while fresh");

        peers.fetch(List.of(r2()), "shop", CONNECTIONS, Window.TEN_MINUTES);
        assertEquals(2, asked.get(), "another metric is another answer");

        now.addAndGet(1);
        peers.fetch(List.of(r2()), "shop", THROUGHPUT, Window.TEN_MINUTES);
        assertEquals(3, asked.get(), "asked again once stale");
    }

    @Test
    void aStalledReplicaCostsItsDeadlineOnceAndTheAnswersKeepTheirOrder() {
        long start = System.nanoTime();
        List<PeerSeries.Answer> first = peers.fetch(List.of(r3(), r2()), "shop", THROUGHPUT, Window.TEN_MINUTES);
        long firstMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(first.get(0).problem().startsWith("no answer within 300 ms"), first.get(0).problem());
        assertNull(first.get(1).problem());
        assertTrue(firstMillis >= 250, "waited for the stalled replica: " + firstMillis + " ms");

        List<PeerSeries.Answer> second = peers.fetch(List.of(r3(), r2()), "shop", THROUGHPUT, Window.TEN_MINUTES);
        assertEquals(first, second, "both answers reused, the failure too, in the same order");
        assertEquals(1, asked.get());

        now.addAndGet(PeerSeries.FRESH_NANOS);
        List<PeerSeries.Answer> third = peers.fetch(List.of(r2(), r3()), "shop", THROUGHPUT, Window.TEN_MINUTES);
        assertNull(third.get(0).problem(), "order follows the request");
        assertTrue(third.get(1).problem().startsWith("no answer within"), third.get(1).problem());
        assertEquals(2, asked.get());
    }
}
