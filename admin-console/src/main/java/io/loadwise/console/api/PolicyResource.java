package io.loadwise.console.api;

import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.policy.LoadBalancingPolicy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Map;
import java.util.Set;

/**
 * {@code /api/clusters/{name}/policy}: the policy in force, and switching it live
 * ({@code {"policy": "least-connections", "options": {...}}}). Requests in flight keep their node.
 */
final class PolicyResource {

    private static final Set<String> FIELDS = Set.of("policy", "options");

    private final ClusterControl control;

    PolicyResource(ClusterControl control) {
        this.control = control;
    }

    Reply get(ApiCall call) throws ApiException {
        return Reply.ok(ClusterView.PolicyInForce.of(ClustersResource.require(control, call.pathParam(0)).policy()));
    }

    Reply put(ApiCall call) throws ApiException, ConfigValidationException, IOException {
        String name = call.pathParam(0);
        ClustersResource.require(control, name);
        BodyFields fields = new BodyFields(call.jsonObject(), FIELDS);
        String id = fields.requiredText("policy");
        Map<String, Double> options = fields.optionalNumbers("options");
        fields.check("policy switch");
        if (!control.policies().contains(id)) {
            throw new ApiException(400, "unknown policy '" + id + "'; known policies are listed in details",
                    new ArrayList<>(control.policies().all().keySet()));
        }
        LoadBalancingPolicy policy = control.policies().get(id);
        control.switchPolicy(name, policy.id(), options);
        return Reply.ok(ClusterView.of(ClustersResource.require(control, name)));
    }
}
