package io.loadwise.dispatcher.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.config.StoreConfig;
import io.loadwise.dispatcher.control.ConfigConflictException;
import io.loadwise.dispatcher.control.ConfigUnavailableException;
import io.loadwise.dispatcher.control.ReplicaInfo;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.HttpNodes.Node;
import io.loadwise.dispatcher.runtime.HttpNodes.StrictClient;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three dispatcher replicas sharing one real etcd. */
class EtcdReplicasTest {

    private static final String PREFIX = "/loadwise/test";
    private static final int TTL_SECONDS = 2;

    @TempDir
    Path dir;

    private EtcdProcess etcd;
    private Transport transport;
    private final List<Node> nodes = new ArrayList<>();
    private final List<Dispatcher> replicas = new ArrayList<>();
    private final List<SharedStore> stores = new ArrayList<>();
    private StoreConfig settings;

    @BeforeEach
    void start() throws Exception {
        etcd = new EtcdProcess(dir);
        transport = new Transport(2);
        for (int i = 1; i <= 3; i++) {
            nodes.add(new Node("n" + i));
        }
        settings = new StoreConfig(StoreConfig.ETCD, List.of(etcd.endpoint()), PREFIX, TTL_SECONDS);
        EtcdConfigSource pusher = new EtcdConfigSource(new EtcdClient(settings.endpointsOrEmpty()), PREFIX, null);
        pusher.push(Configs.config(web(0, 1)));
        for (int i = 1; i <= 3; i++) {
            replicas.add(startReplica("r" + i, true));
        }
    }

    private ClusterConfig web(int... indexes) {
        List<NodeConfig> list = new ArrayList<>();
        for (int i : indexes) {
            list.add(new NodeConfig("n" + (i + 1), nodes.get(i).address(), null, null, "n" + (i + 1), null));
        }
        return ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0").policy("round-robin")
                .affinity(Affinity.COOKIE).nodes(list).build();
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

    @AfterEach
    void stop() throws Exception {
        stores.forEach(SharedStore::close);
        replicas.forEach(Dispatcher::close);
        transport.close();
        nodes.forEach(Node::close);
        etcd.close();
    }

    private Dispatcher a() {
        return replicas.get(0);
    }

    @Test
    void anEditOnOneReplicaIsAppliedOnTheOthersWithinOneSecond() throws Exception {
        long start = System.nanoTime();
        a().switchPolicy("web", "least-connections", null);
        for (Dispatcher other : replicas.subList(1, 3)) {
            Await.until("the policy switch reaches the replica", Duration.ofSeconds(1),
                    () -> other.cluster("web").policy().id().equals("least-connections"));
        }
        assertTrue(System.nanoTime() - start < 1_000_000_000L);

        replicas.get(1).updateCluster("web", web(0, 1, 2));
        for (Dispatcher other : List.of(a(), replicas.get(2))) {
            Await.until("the added node reaches the replica", Duration.ofSeconds(1),
                    () -> other.cluster("web").nodes().size() == 3);
        }
        try (StrictClient client = new StrictClient(replicas.get(2).boundAddress("web").getPort())) {
            assertNotNull(client.get("/"));
        }
    }

    @Test
    void anEditBasedOnAnOldVersionConflictsAndChangesNothing() throws Exception {
        Dispatcher lagging = startReplica("lagging", false); // never follows etcd: its view stays old
        replicas.add(lagging);
        a().switchPolicy("web", "least-connections", null);

        ConfigConflictException e = assertThrows(ConfigConflictException.class,
                () -> lagging.switchPolicy("web", "random", null));

        assertTrue(e.getMessage().contains("changed meanwhile"), e.getMessage());
        assertEquals("round-robin", lagging.cluster("web").policy().id(), "the refused edit was not applied");
        Await.until("every following replica has A's edit", () -> replicas.subList(0, 3).stream()
                .allMatch(r -> r.cluster("web").policy().id().equals("least-connections")));
    }

    @Test
    void anEditBasedOnWhatTheWatchHasNotAppliedYetConflicts() throws Exception {
        ConfigStore file = new ConfigStore(dir.resolve("r1.json"));
        EtcdConfigSource source = new EtcdConfigSource(new EtcdClient(settings.endpointsOrEmpty()), PREFIX, file);
        LoadwiseConfig inForce = source.read();
        a().switchPolicy("web", "least-connections", null);
        source.read(); // the watch read the new state, the dispatcher has not applied it yet

        LoadwiseConfig edit = inForce.withClusters(List.of(inForce.clusters().get(0).toBuilder().policy("random").build()));
        assertThrows(ConfigConflictException.class, () -> source.write(inForce, edit));
        assertEquals("least-connections", source.read().clusters().get(0).policy(), "A's edit was not overwritten");
    }

    @Test
    void concurrentEditsOnTwoReplicasEitherSucceedOrConflict() throws Exception {
        AtomicInteger conflicts = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        List<CompletableFuture<Void>> editors = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            Dispatcher replica = replicas.get(r);
            String policy = r == 0 ? "least-connections" : "random";
            editors.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 10; i++) {
                    try {
                        replica.switchPolicy("web", i % 2 == 0 ? policy : "round-robin", null);
                        done.incrementAndGet();
                    } catch (ConfigConflictException e) {
                        conflicts.incrementAndGet();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }));
        }
        CompletableFuture.allOf(editors.toArray(new CompletableFuture[0])).get();
        assertEquals(20, done.get() + conflicts.get());
        EtcdConfigSource reader = new EtcdConfigSource(new EtcdClient(settings.endpointsOrEmpty()), PREFIX,
                new ConfigStore(dir.resolve("r1.json")));
        String stored = reader.read().clusters().get(0).policy();
        Await.until("every replica converges on what etcd holds", () -> replicas.stream()
                .allMatch(r -> r.cluster("web").policy().id().equals(stored)));
    }

    @Test
    void aKilledReplicaDropsOutOfTheRegistryWithinItsTtl() throws Exception {
        Await.until("three replicas registered", () -> ids(a().replicas()).size() == 3);
        assertEquals(List.of("r1", "r2", "r3"), ids(a().replicas()));
        ReplicaInfo r3 = a().replicas().get(2);
        assertTrue(r3.listen().get(0).startsWith("web=127.0.0.1:"), r3.toString());

        stores.get(2).registry().abandon(); // as a crash: no revoke, the lease just stops being renewed
        replicas.get(2).close();
        long start = System.nanoTime();
        Await.until("r3 drops out", Duration.ofSeconds(TTL_SECONDS + 2), () -> ids(a().replicas()).size() == 2);
        assertTrue(System.nanoTime() - start < (TTL_SECONDS + 1.5) * 1e9, "dropped out within the TTL");
        assertEquals(List.of("r1", "r2"), ids(replicas.get(1).replicas()));
    }

    @Test
    void withEtcdStoppedReplicasServeRefuseEditsAndCatchUpWhenItIsBack() throws Exception {
        etcd.stop();
        try (StrictClient client = new StrictClient(a().boundAddress("web").getPort())) {
            assertNotNull(client.get("/"), "serving with the last configuration");
        }
        ConfigUnavailableException refused = assertThrows(ConfigUnavailableException.class,
                () -> a().switchPolicy("web", "random", null));
        assertTrue(refused.getMessage().contains("cannot be reached"), refused.getMessage());
        assertEquals("round-robin", a().cluster("web").policy().id());
        assertThrows(ConfigUnavailableException.class, () -> a().replicas());

        etcd.start();
        EtcdConfigSource pusher = new EtcdConfigSource(new EtcdClient(settings.endpointsOrEmpty()), PREFIX, null);
        pusher.push(Configs.config(web(0, 1, 2)));
        for (Dispatcher replica : replicas) {
            Await.until("the replica catches up", () -> replica.cluster("web").nodes().size() == 3);
        }
        a().switchPolicy("web", "random", null);
        Await.until("edits work again", () -> replicas.get(2).cluster("web").policy().id().equals("random"));
    }

    @Test
    void aCorruptValueIsRejectedWithTheValidatorsMessageAndTheOldConfigurationStays() throws Exception {
        EtcdClient raw = new EtcdClient(settings.endpointsOrEmpty());
        LoadwiseConfig before = replicas.get(1).config();
        raw.commit(new EtcdClient.Txn().put(PREFIX + "/clusters/web", "{\"name\": \"web\", \"mode\": ", 0));
        Await.until("the syntax error is reported", () -> stores.get(1).source().lastRejection() != null);
        assertTrue(stores.get(1).source().lastRejection().contains("etcd " + PREFIX + "/clusters/web: line"),
                stores.get(1).source().lastRejection());
        assertEquals(before, replicas.get(1).config());

        String zeroWeight = ConfigLoader.toJson(web(0, 1)).replaceFirst("\"name\" : \"n1\"", "\"name\" : \"n1\",\n \"weight\" : 0");
        raw.commit(new EtcdClient.Txn().put(PREFIX + "/clusters/web", zeroWeight, 0));
        Await.until("the invalid weight is reported", () -> String.valueOf(stores.get(1).source().lastRejection())
                .contains("clusters[0].nodes[0].weight"));
        assertEquals(before, replicas.get(1).config());
        try (StrictClient client = new StrictClient(replicas.get(1).boundAddress("web").getPort())) {
            assertNotNull(client.get("/"));
        }
    }

    @Test
    void cookieAffinitySurvivesMovingToAnotherReplica() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> first = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + a().boundAddress("web").getPort() + "/")).build(),
                HttpResponse.BodyHandlers.ofString());
        String cookie = first.headers().firstValue("set-cookie").orElseThrow().split(";")[0];
        for (Dispatcher other : replicas) {
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> next = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + other.boundAddress("web").getPort() + "/"))
                        .header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(first.body(), next.body(), "the same node on every replica");
            }
        }
    }

    private static List<String> ids(List<ReplicaInfo> list) {
        return list.stream().map(ReplicaInfo::id).sorted().toList();
    }
}
