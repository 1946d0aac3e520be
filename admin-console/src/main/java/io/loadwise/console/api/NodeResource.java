package io.loadwise.console.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import java.io.IOException;
import java.util.Set;

/**
 * {@code /api/clusters/{name}/nodes/{node}}: one node's state, and changing its flags with any of
 * {@code {"enabled": false, "weight": 3, "drain": true, "priority": 1, "backup": true}}. All but {@code drain},
 * which lasts until the process restarts, are persisted.
 *
 * <p>{@code drain} is {@code true} (no new work at all), {@code "sessions"} (only the requests pinned to the node,
 * until its sessions are gone; with optional {@code deadlineMs} and {@code sessionIdleMs}) or {@code false}. The
 * answer's {@code drainChange} says what a drain did: started, switched from another mode, unchanged or ended.
 */
final class NodeResource {

    private static final Set<String> FIELDS = Set.of("enabled", "weight", "drain", "deadlineMs", "sessionIdleMs",
            "priority", "backup");

    private final ClusterControl control;

    NodeResource(ClusterControl control) {
        this.control = control;
    }

    Reply get(ApiCall call) throws ApiException {
        return Reply.ok(view(call));
    }

    Reply put(ApiCall call) throws ApiException, ConfigValidationException, IOException {
        String node = require(ClustersResource.require(control, call.pathParam(0)), call.pathParam(1)).name();
        BodyFields fields = new BodyFields(call.jsonObject(), FIELDS);
        Boolean enabled = fields.optionalBoolean("enabled");
        Integer weight = fields.optionalInt("weight");
        DrainMode drain = fields.optionalDrain("drain");
        Long deadlineMs = fields.optionalLong("deadlineMs", 0);
        Long sessionIdleMs = fields.optionalLong("sessionIdleMs", 1);
        Integer priority = fields.optionalInt("priority");
        Boolean backup = fields.optionalBoolean("backup");
        if (drain != DrainMode.SESSIONS && (drain != null || !fields.has("drain"))) {
            for (String name : new String[] {"deadlineMs", "sessionIdleMs"}) {
                if (fields.has(name)) {
                    fields.error(name + ": only with \"drain\": \"sessions\"");
                }
            }
        }
        fields.check("node update");
        if (enabled == null && weight == null && drain == null && priority == null && backup == null) {
            throw ApiException.badRequest(
                    "nothing to change: give at least one of enabled, weight, drain, priority, backup");
        }
        if (priority != null || backup != null) {
            control.updateNodeGroup(call.pathParam(0), node, priority, backup);
        }
        if (enabled != null || weight != null) {
            control.updateNode(call.pathParam(0), node, enabled, weight, null);
        }
        if (drain == null) {
            return Reply.ok(view(call));
        }
        DrainMode before = control.drainNode(call.pathParam(0), node, drain, deadlineMs == null ? 0 : deadlineMs,
                sessionIdleMs == null ? NodeConfig.DEFAULT_SESSION_IDLE_MS : sessionIdleMs);
        ObjectNode answer = ApiJson.MAPPER.valueToTree(view(call));
        answer.put("drainChange", change(before, drain));
        return Reply.ok(answer);
    }

    /** What a drain request did, for the operator: {@code "switched from immediate to sessions"}, ... */
    static String change(DrainMode before, DrainMode now) {
        if (before == now) {
            return now == DrainMode.NONE ? "not draining: unchanged" : "already draining (" + now.id() + "): unchanged";
        }
        if (now == DrainMode.NONE) {
            return "drain ended (was " + before.id() + ")";
        }
        return before == DrainMode.NONE ? "drain started (" + now.id() + ")"
                : "switched from " + before.id() + " to " + now.id();
    }

    private ClusterView.NodeView view(ApiCall call) throws ApiException {
        ClusterStatus cluster = ClustersResource.require(control, call.pathParam(0));
        return ClusterView.NodeView.of(cluster.policy(), require(cluster, call.pathParam(1)));
    }

    /** The node named in the path, or 404. */
    static NodeStatus require(ClusterStatus cluster, String name) throws ApiException {
        NodeStatus node = cluster.node(name);
        if (node == null) {
            throw ApiException.notFound("cluster '" + cluster.name() + "' has no node named '" + name + "'");
        }
        return node;
    }
}
