package io.loadwise.console.api;

import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import java.io.IOException;
import java.util.Set;

/**
 * {@code /api/clusters/{name}/nodes/{node}}: one node's state, and changing its flags with any of
 * {@code {"enabled": false, "weight": 3, "drain": true, "priority": 1, "backup": true}}. All but {@code drain},
 * which lasts until the process restarts, are persisted.
 */
final class NodeResource {

    private static final Set<String> FIELDS = Set.of("enabled", "weight", "drain", "priority", "backup");

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
        Boolean drain = fields.optionalBoolean("drain");
        Integer priority = fields.optionalInt("priority");
        Boolean backup = fields.optionalBoolean("backup");
        fields.check("node update");
        if (enabled == null && weight == null && drain == null && priority == null && backup == null) {
            throw ApiException.badRequest(
                    "nothing to change: give at least one of enabled, weight, drain, priority, backup");
        }
        if (priority != null || backup != null) {
            control.updateNodeGroup(call.pathParam(0), node, priority, backup);
        }
        if (enabled != null || weight != null || drain != null) {
            control.updateNode(call.pathParam(0), node, enabled, weight, drain);
        }
        return Reply.ok(view(call));
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
