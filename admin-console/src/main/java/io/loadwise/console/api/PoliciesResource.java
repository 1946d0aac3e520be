package io.loadwise.console.api;

import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.PolicyInput;
import java.util.ArrayList;
import java.util.List;

/** {@code /api/policies}: the policies registered in this process. */
final class PoliciesResource {

    record PolicyInfo(String id, String description, boolean usesAgentMetrics) {
    }

    private final ClusterControl control;

    PoliciesResource(ClusterControl control) {
        this.control = control;
    }

    Reply list(ApiCall call) {
        List<PolicyInfo> policies = new ArrayList<>();
        for (LoadBalancingPolicy p : control.policies().all().values()) {
            policies.add(new PolicyInfo(p.id(), p.description(), p.inputs().contains(PolicyInput.AGENT_METRICS)));
        }
        return Reply.ok(policies);
    }
}
