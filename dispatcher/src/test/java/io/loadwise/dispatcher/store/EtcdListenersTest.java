package io.loadwise.dispatcher.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.config.RateLimitConfig;
import io.loadwise.dispatcher.config.RouteConfig;
import io.loadwise.dispatcher.config.StoreConfig;
import io.loadwise.dispatcher.control.ConfigConflictException;
import io.loadwise.dispatcher.control.RateLimitStatus;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.HttpNodes.Node;
import io.loadwise.dispatcher.runtime.HttpNodes.StrictClient;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Listeners and rate limits in a real etcd, one key each ({@code <prefix>/listeners/<name>},
 * {@code <prefix>/rateLimits/<name>}), with the same revision checks as clusters.
 */
class EtcdListenersTest {

    private static final String PREFIX = "/loadwise/test";

    @TempDir
    Path dir;

    private EtcdProcess etcd;
    private EtcdClient raw;
    private Transport transport;
    private Node node;
    private final List<Dispatcher> replicas = new ArrayList<>();
    private final List<SharedStore> stores = new ArrayList<>();
    private StoreConfig settings;

    @BeforeEach
    void start() throws Exception {
        etcd = new EtcdProcess(dir);
        raw = new EtcdClient(List.of(etcd.endpoint()));
        transport = new Transport(2);
        node = new Node("n1");
        settings = new StoreConfig(StoreConfig.ETCD, List.of(etcd.endpoint()), PREFIX, 2);
        LoadwiseConfig pushed = Configs.config(shop()).withListeners(List.of(listener("edge", "/")),
                Map.of("per-client", new RateLimitConfig("clientIp", 100.0, null, null)));
        new EtcdConfigSource(raw, PREFIX, null).push(pushed);
        replicas.add(startReplica("r1", true));
        replicas.add(startReplica("r2", true));
    }

    @AfterEach
    void stop() throws Exception {
        stores.forEach(SharedStore::close);
        replicas.forEach(Dispatcher::close);
        transport.close();
        node.close();
        etcd.close();
    }

    private ClusterConfig shop() {
        return ClusterConfig.builder().name("shop").mode(Mode.HTTP).policy("round-robin")
                .nodes(List.of(new NodeConfig("n1", node.address(), null, null, null, null))).build();
    }

    private static ListenerConfig listener(String name, String pathPrefix) {
        RouteConfig route = new RouteConfig(null, new io.loadwise.dispatcher.config.RouteMatch(null, null, pathPrefix,
                null, null, null, null), "shop", null, null, null, null, null, null, "per-client");
        return new ListenerConfig(name, "127.0.0.1:0", null, null, List.of(route), null, null, null, null, null,
                null, null, null);
    }

    private Dispatcher startReplica(String id, boolean follow) throws Exception {
        Path file = dir.resolve(id + ".json");
        LoadwiseConfig local = new LoadwiseConfig(Configs.config().admin(), null, null, null, null, settings);
        Files.writeString(file, ConfigLoader.toJson(local));
        SharedStore shared = new SharedStore(settings, new ConfigStore(file));
        stores.add(shared);
        Dispatcher dispatcher = new Dispatcher(shared.source().read(), PolicyRegistry.load(), transport,
                new ModeListenerFactory(), shared.source());
        dispatcher.start("test-token-0123456789", false);
        if (follow) {
            shared.attach(dispatcher, id, 0, "test");
        }
        return dispatcher;
    }

    private String stored(String key) throws Exception {
        List<EtcdClient.KeyValue> kvs = raw.rangePrefix(PREFIX + "/" + key).kvs();
        return kvs.isEmpty() ? null : kvs.get(0).value();
    }

    private static String pathPrefix(Dispatcher replica, String listener) {
        for (ListenerConfig l : replica.config().listenersOrEmpty()) {
            if (l.name().equals(listener)) {
                return l.routes().get(0).match().pathPrefix();
            }
        }
        return null;
    }

    @Test
    void pushedListenersAndRateLimitsAreOneKeyEachAndServeOnEveryReplica() throws Exception {
        assertTrue(stored("listeners/edge").contains("\"rateLimit\" : \"per-client\""), stored("listeners/edge"));
        assertTrue(stored("rateLimits/per-client").contains("\"requestsPerSecond\" : 100.0"),
                stored("rateLimits/per-client"));
        for (Dispatcher replica : replicas) {
            try (StrictClient client = new StrictClient(replica.routedListening().get("edge").getPort())) {
                assertEquals("n1", client.get("/cart"));
            }
        }
    }

    @Test
    void eachReplicaEnforcesItsShareOfARateLimit() {
        // the registry is re-read every 5 s off the event loops: wait for both replicas to count each other
        for (Dispatcher replica : replicas) {
            Await.until("the replica enforces half of the limit", Duration.ofSeconds(15), () -> replica
                    .rateLimitStatuses().stream().anyMatch(s -> s.name().equals("per-client") && s.replicas() == 2));
            RateLimitStatus status = replica.rateLimitStatuses().get(0);
            assertEquals(100.0, status.requestsPerSecond());
            assertEquals(50.0, status.enforcedRequestsPerSecond());
        }
    }

    @Test
    void aListenerAddedOnOneReplicaIsWrittenToItsKeyAndServesOnTheOther() throws Exception {
        replicas.get(0).createListener(listener("api", "/api"));
        assertEquals(ConfigLoader.toJson(listener("api", "/api")), stored("listeners/api"));
        Await.until("the new listener runs on the other replica",
                () -> replicas.get(1).routedListening().containsKey("api"));
        try (StrictClient client = new StrictClient(replicas.get(1).routedListening().get("api").getPort())) {
            assertEquals("n1", client.get("/api/x"));
        }

        replicas.get(1).deleteListener("api");
        assertEquals(null, stored("listeners/api"));
        Await.until("the removal reaches the first replica",
                () -> !replicas.get(0).routedListening().containsKey("api"));
    }

    @Test
    void anEditOfTheSameListenerBasedOnAnOldVersionConflictsAndIsNotLost() throws Exception {
        Dispatcher lagging = startReplica("lagging", false); // never follows etcd: its view stays old
        replicas.add(lagging);
        replicas.get(0).updateListener("edge", listener("edge", "/first"));

        ConfigConflictException e = assertThrows(ConfigConflictException.class,
                () -> lagging.updateListener("edge", listener("edge", "/second")));

        assertEquals("listeners/edge was changed meanwhile (by another replica or config push); nothing was"
                + " written. Read it again and repeat the change.", e.getMessage());
        assertTrue(stored("listeners/edge").contains("/first"), "the first edit was not overwritten");
        assertEquals("/", pathPrefix(lagging, "edge"), "the refused edit was not applied");
        Await.until("the following replica has the first edit",
                () -> "/first".equals(pathPrefix(replicas.get(1), "edge")));

        lagging.createListener(listener("other", "/other")); // a different listener does not conflict
        assertTrue(stored("listeners/other").contains("/other"));
    }

    @Test
    void anEditOfTheSameRateLimitBasedOnAnOldVersionConflicts() throws Exception {
        Dispatcher lagging = startReplica("lagging", false);
        replicas.add(lagging);
        replicas.get(0).updateRateLimits(Map.of("per-client", new RateLimitConfig("clientIp", 5.0, null, null)));

        ConfigConflictException e = assertThrows(ConfigConflictException.class, () -> lagging.updateRateLimits(
                Map.of("per-client", new RateLimitConfig("clientIp", 7.0, null, null))));

        assertTrue(e.getMessage().startsWith("rateLimits/per-client was changed meanwhile"), e.getMessage());
        assertTrue(stored("rateLimits/per-client").contains("5.0"), stored("rateLimits/per-client"));
        Await.until("the following replica enforces the first edit", () -> replicas.get(1).rateLimitStatuses()
                .stream().anyMatch(s -> s.name().equals("per-client") && s.requestsPerSecond() == 5.0));
        assertFalse(stored("rateLimits/per-client").contains("7.0"));
    }
}
