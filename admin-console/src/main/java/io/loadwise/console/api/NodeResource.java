package io.loadwise.console.api;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.control.ClusterControl;
import java.io.IOException;
import java.util.Set;

/**
 * {@code /api/clusters/{name}/nodes/{node}}: one node's state, and changing its flags with any of
 * {@code {"enabled": false, "weight": 3, "drain": true}}. {@code enabled} and {@code weight} are
 * persisted; {@code drain} lasts until the process restarts.
 */
final class NodeResource {

    private static final Set<String> FIELDS = Set.of("enabled", "weight", "drain");

    private final ClusterControl control;

    NodeResource(ClusterControl control) {
        this.control = control;
    }

    Reply get(ApiCall call) throws ApiException {
        return Reply.ok(view(call));
    }

    Reply put(ApiCall call) throws ApiException, ConfigValidationException, IOException {
        NodeState node = require(call);
        BodyFields fields = new BodyFields(call.jsonObject(), FIELDS);
        Boolean enabled = fields.optionalBoolean("enabled");
        Integer weight = fields.optionalInt("weight");
        Boolean drain = fields.optionalBoolean("drain");
        fields.check("node update");
        if (enabled == null && weight == null && drain == null) {
            throw ApiException.badRequest("nothing to change: give at least one of enabled, weight, drain");
        }
        control.updateNode(call.pathParam(0), node.name(), enabled, weight, drain);
        return Reply.ok(view(call));
    }

    private ClusterView.NodeView view(ApiCall call) throws ApiException {
        return ClusterView.NodeView.of(ClustersResource.require(control, call.pathParam(0)), require(call));
    }

    private NodeState require(ApiCall call) throws ApiException {
        VirtualCluster cluster = ClustersResource.require(control, call.pathParam(0));
        NodeState node = cluster.node(call.pathParam(1));
        if (node == null) {
            throw ApiException.notFound("cluster '" + cluster.name() + "' has no node named '" + call.pathParam(1) + "'");
        }
        return node;
    }
}
