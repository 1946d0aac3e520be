package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.ThresholdPolicy;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.PolicyInput;
import io.loadwise.testsupport.TestFirstUsablePolicy;
import io.loadwise.testsupport.TestLastUsablePolicy;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyApiTest extends ApiTestBase {

    @Test
    void listsEveryRegisteredPolicySortedById() {
        JsonNode policies = api.get("/api/policies").json();
        List<LoadBalancingPolicy> registered = List.copyOf(control.policies().all().values());
        assertEquals(registered.size(), policies.size(), policies.toString());
        for (int i = 0; i < registered.size(); i++) {
            LoadBalancingPolicy expected = registered.get(i);
            JsonNode actual = policies.get(i);
            assertEquals(expected.id(), actual.path("id").asText());
            assertEquals(expected.description(), actual.path("description").asText());
            JsonNode usesAgentMetrics = actual.path("usesAgentMetrics");
            assertTrue(usesAgentMetrics.isBoolean(), actual.toString());
            assertEquals(expected.inputs().contains(PolicyInput.AGENT_METRICS), usesAgentMetrics.booleanValue(),
                    expected.id());
            if (expected.id().equals("jvm-aware")) {
                assertTrue(usesAgentMetrics.booleanValue(), "the flag comes from inputs(), not the deprecated method");
            }
        }
        List<String> ids = new ArrayList<>();
        policies.forEach(p -> ids.add(p.path("id").asText()));
        assertTrue(ids.containsAll(List.of(TestFirstUsablePolicy.ID, TestLastUsablePolicy.ID, ThresholdPolicy.ID)), ids.toString());
        assertEquals(ids.stream().sorted().toList(), ids);
    }

    @Test
    void agentDrivenPolicyIsRefusedForATcpCluster() {
        String agentPolicy = control.policies().all().values().stream()
                .filter(p -> p.inputs().contains(PolicyInput.AGENT_METRICS)).map(LoadBalancingPolicy::id).findFirst()
                .orElseThrow(() -> new AssertionError("no agent policy built in"));
        ApiClient.Response response = api.put("/api/clusters/web/policy", "{\"policy\": \"" + agentPolicy + "\"}");
        assertEquals(400, response.status(), response.body());
        assertTrue(response.json().path("details").toString().contains("which a tcp cluster does not collect"),
                response.body());
        assertEquals(TestFirstUsablePolicy.ID, control.cluster("web").policy().id());
    }

    @Test
    void switchTakesEffectLiveAndIsPersisted() throws Exception {
        assertEquals("a", roundTrip(control.boundAddress("web"), "a"));
        assertEquals(1, node1.accepted());

        ApiClient.Response response = api.put("/api/clusters/web/policy", "{\"policy\": \"" + TestLastUsablePolicy.ID + "\"}");
        assertEquals(200, response.status(), response.body());
        assertEquals(TestLastUsablePolicy.ID, api.get("/api/clusters/web").json().path("policy").path("id").asText());
        assertEquals(TestLastUsablePolicy.ID, api.get("/api/clusters/web/policy").json().path("id").asText());
        assertEquals(TestLastUsablePolicy.ID, clusterOnDisk("web").path("policy").asText());

        assertEquals("b", roundTrip(control.boundAddress("web"), "b"));
        assertEquals(1, node2.accepted(), "traffic follows the new policy");
        assertEquals(1, node1.accepted());
    }

    @Test
    void optionsAreValidatedByThePolicyAndShown() throws Exception {
        ApiClient.Response ok = api.put("/api/clusters/web/policy",
                "{\"policy\": \"" + ThresholdPolicy.ID + "\", \"options\": {\"threshold\": 85}}");
        assertEquals(200, ok.status(), ok.body());
        assertEquals(85.0, ok.json().path("policy").path("options").path("threshold").asDouble());
        assertEquals(85.0, clusterOnDisk("web").path("policyOptions").path("threshold").asDouble());

        String before = Files.readString(configFile);
        ApiClient.Response bad = api.put("/api/clusters/web/policy",
                "{\"policy\": \"" + ThresholdPolicy.ID + "\", \"options\": {\"threshold\": 150, \"speed\": 1}}");
        assertEquals(400, bad.status(), bad.body());
        String details = bad.json().path("details").toString();
        assertTrue(details.contains("policyOptions.threshold: 150.0 out of range"), details);
        assertTrue(details.contains("policyOptions.speed: unknown option"), details);
        assertEquals(before, Files.readString(configFile));
        assertEquals(85.0, control.cluster("web").policyOptions().get("threshold", -1));
    }

    @Test
    void unknownPolicyIs400ListingTheKnownIds() {
        ApiClient.Response response = api.put("/api/clusters/web/policy", "{\"policy\": \"round-robbin\"}");
        assertEquals(400, response.status(), response.body());
        assertTrue(response.json().path("error").asText().contains("unknown policy 'round-robbin'"));
        List<String> known = new ArrayList<>();
        response.json().path("details").forEach(id -> known.add(id.asText()));
        assertEquals(List.copyOf(control.policies().all().keySet()), known);
        assertEquals(TestFirstUsablePolicy.ID, control.cluster("web").policy().id());
    }

    @Test
    void malformedSwitchRequestsAre400PerField() {
        ApiClient.Response response = api.put("/api/clusters/web/policy",
                "{\"options\": {\"threshold\": \"high\"}, \"force\": true}");
        assertEquals(400, response.status(), response.body());
        String details = response.json().path("details").toString();
        assertTrue(details.contains("force: unknown field"), details);
        assertTrue(details.contains("policy: missing"), details);
        assertTrue(details.contains("options.threshold: expected a number"), details);
        assertEquals(404, api.put("/api/clusters/nope/policy", "{\"policy\": \"" + TestLastUsablePolicy.ID + "\"}").status());
    }
}
