package io.loadwise.console.api;

import io.loadwise.console.store.MetricStores;
import io.loadwise.console.store.StoreUsage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/metrics/stores}: what the metric stores use of their disk budget, the free space and
 * the reserve, the clusters and nodes whose metrics the limits refused (with a {@code warning} line
 * while there are any, or while the stores use more than 90 % of the budget), and the stores of removed
 * clusters and nodes waiting for deletion.
 */
final class MetricStoresResource {

    private final MetricStores stores;

    MetricStoresResource(MetricStores stores) {
        this.stores = stores;
    }

    Reply get(ApiCall call) {
        StoreUsage usage = stores.usage();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("usedBytes", usage.usedBytes());
        body.put("budgetBytes", usage.budgetBytes());
        body.put("storeCount", usage.storeCount());
        body.put("freeBytes", usage.freeBytes() < 0 ? null : usage.freeBytes());
        body.put("reserveBytes", usage.reserveBytes() < 0 ? null : usage.reserveBytes());
        body.put("retentionHours", usage.retentionMillis() / 3_600_000.0);
        body.put("warning", usage.warning());
        List<Map<String, Object>> refused = new ArrayList<>();
        for (StoreUsage.Refused r : usage.refused()) {
            Map<String, Object> entry = where(r.cluster(), r.node());
            entry.put("refused", r.what());
            entry.put("reason", r.reason());
            entry.put("since", Instant.ofEpochMilli(r.sinceMillis()).toString());
            refused.add(entry);
        }
        body.put("refused", refused);
        List<Map<String, Object>> pending = new ArrayList<>();
        for (StoreUsage.PendingRemoval p : usage.pendingRemoval()) {
            Map<String, Object> entry = where(p.cluster(), p.node());
            entry.put("deleteAt", Instant.ofEpochMilli(p.deleteAtMillis()).toString());
            pending.add(entry);
        }
        body.put("pendingRemoval", pending);
        return Reply.ok(body);
    }

    private static Map<String, Object> where(String cluster, String node) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("cluster", cluster);
        if (node != null) {
            out.put("node", node);
        }
        return out;
    }
}
