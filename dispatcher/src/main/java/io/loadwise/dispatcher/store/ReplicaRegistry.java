package io.loadwise.dispatcher.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadwise.dispatcher.control.ConfigUnavailableException;
import io.loadwise.dispatcher.control.ReplicaInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This replica's entry in etcd ({@code <prefix>/replicas/<id>}), attached to a lease it renews every third of
 * the TTL. A replica that dies stops renewing and its entry expires with the lease, so the list is of live
 * replicas only. When etcd was unreachable long enough for the lease to expire, the next renewal takes a new
 * lease and registers again.
 */
public final class ReplicaRegistry implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplicaRegistry.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final EtcdClient etcd;
    private final String replicasPrefix;
    private final int ttlSeconds;
    private final ReplicaInfo self;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "loadwise-etcd-lease");
        t.setDaemon(true);
        return t;
    });
    private long lease;

    public ReplicaRegistry(EtcdClient etcd, String prefix, int ttlSeconds, ReplicaInfo self) {
        this.etcd = etcd;
        this.replicasPrefix = prefix + "/replicas/";
        this.ttlSeconds = ttlSeconds;
        this.self = self;
    }

    /** Registers now (a failure is retried at the next renewal) and renews every third of the TTL. */
    public void start() {
        renew();
        long period = Math.max(500, ttlSeconds * 1000L / 3);
        timer.scheduleWithFixedDelay(this::renew, period, period, TimeUnit.MILLISECONDS);
    }

    private synchronized void renew() {
        try {
            if (lease != 0 && etcd.keepAlive(lease) > 0) {
                return;
            }
            lease = etcd.grantLease(ttlSeconds);
            etcd.commit(new EtcdClient.Txn().put(replicasPrefix + self.id(), JSON.writeValueAsString(self), lease));
            log.info("replica {} registered in etcd {} (lease TTL {} s)", self.id(), etcd.describe(), ttlSeconds);
        } catch (IOException | RuntimeException e) {
            log.debug("replica {}: lease renewal failed: {}", self.id(), e.toString());
        }
    }

    /** The live replicas, this one included when its entry is current. */
    public List<ReplicaInfo> list() {
        try {
            List<ReplicaInfo> replicas = new ArrayList<>();
            for (EtcdClient.KeyValue kv : etcd.rangePrefix(replicasPrefix).kvs()) {
                try {
                    replicas.add(JSON.readValue(kv.value(), ReplicaInfo.class));
                } catch (IOException e) {
                    log.warn("etcd {}: not a replica entry, ignored: {}", kv.key(), e.getMessage());
                }
            }
            return replicas;
        } catch (IOException e) {
            throw new ConfigUnavailableException("etcd " + etcd.describe() + " cannot be reached (" + e.getMessage()
                    + "): the replica list is unknown until it is back");
        }
    }

    /** Stops renewing without removing the entry: what a crash does (tests). */
    void abandon() {
        timer.shutdownNow();
    }

    /** Stops renewing and removes the entry at once. */
    @Override
    public synchronized void close() {
        timer.shutdownNow();
        if (lease != 0) {
            try {
                etcd.revokeLease(lease);
            } catch (IOException e) {
                log.debug("replica {}: revoking the lease failed, it expires by itself: {}", self.id(), e.toString());
            }
        }
    }
}
