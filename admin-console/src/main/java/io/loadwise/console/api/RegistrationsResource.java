package io.loadwise.console.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.NodeRegistration;
import io.loadwise.dispatcher.control.RegistrationReply;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code /api/clusters/{name}/registrations}: nodes register themselves and heartbeat with
 * {@code POST {"name", "address", "route", "contexts"}} (201 when added, 200 when renewed), and leave with
 * {@code DELETE .../registrations/{node}} (202: it drains, then goes). The only endpoints the registration
 * token reaches ({@link AuthFilter}). Calls are rate-limited per source address (429), bodies are small
 * (413 above {@value #MAX_BODY_BYTES} bytes), and every refusal names its reason.
 */
final class RegistrationsResource {

    static final int MAX_BODY_BYTES = 16 * 1024;
    private static final Set<String> FIELDS = Set.of("name", "address", "route", "contexts");

    private final ClusterControl control;
    private final RegistrationRateLimit limit;

    RegistrationsResource(ClusterControl control, Clock clock) {
        this.control = control;
        this.limit = new RegistrationRateLimit(clock);
    }

    /** Whether {@code method path} is a call the registration token may make. */
    static boolean registrationCall(String method, String path) {
        String[] s = path.split("/", -1);
        boolean base = s.length >= 5 && s[0].isEmpty() && s[1].equals("api") && s[2].equals("clusters")
                && !s[3].isEmpty() && s[4].equals("registrations");
        return base && (("POST".equals(method) && s.length == 5)
                || ("DELETE".equals(method) && s.length == 6 && !s[5].isEmpty()));
    }

    Reply register(ApiCall call) throws ApiException, IOException {
        admit(call);
        NodeRegistration registration = parse(call.jsonObject(MAX_BODY_BYTES));
        RegistrationReply reply = control.register(call.pathParam(0), registration);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("cluster", reply.cluster());
        body.put("node", reply.node());
        body.put("registered", true);
        body.put("ttlMs", reply.ttlMs());
        return reply.created() ? Reply.created("/api/clusters/" + reply.cluster() + "/nodes/" + reply.node(), body)
                : Reply.ok(body);
    }

    Reply deregister(ApiCall call) throws ApiException {
        admit(call);
        control.deregister(call.pathParam(0), call.pathParam(1));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("cluster", call.pathParam(0));
        body.put("node", call.pathParam(1));
        body.put("draining", true);
        return new Reply(202, body, null);
    }

    private void admit(ApiCall call) throws ApiException {
        if (!limit.admit(call.remoteAddress())) {
            throw new ApiException(429, "too many registration calls from this address: at most "
                    + RegistrationRateLimit.BURST + " at once and " + RegistrationRateLimit.PER_SECOND
                    + " a second; retry after 1 s");
        }
    }

    private static NodeRegistration parse(ObjectNode json) throws ApiException {
        BodyFields fields = new BodyFields(json, FIELDS);
        List<String> errors = new ArrayList<>();
        String name = text(json, "name", true, errors);
        String address = text(json, "address", true, errors);
        String route = text(json, "route", false, errors);
        List<String> contexts = null;
        JsonNode node = json.get("contexts");
        if (node == null || node.isNull()) {
            errors.add("contexts: missing (an array of context paths such as \"/app\")");
        } else if (!node.isArray()) {
            errors.add("contexts: expected an array of strings, got " + shown(node));
        } else {
            contexts = new ArrayList<>();
            for (int i = 0; i < node.size(); i++) {
                if (!node.get(i).isTextual()) {
                    errors.add("contexts[" + i + "]: expected a string, got " + shown(node.get(i)));
                } else {
                    contexts.add(node.get(i).textValue());
                }
            }
        }
        try {
            fields.check("registration");
        } catch (ApiException e) {
            errors.addAll(e.details());
        }
        if (!errors.isEmpty()) {
            throw new ApiException(400, "invalid registration", errors);
        }
        return new NodeRegistration(name, address, route, contexts);
    }

    /** A JSON value as sent, cut to 64 characters: error messages never echo a large body. */
    private static String shown(JsonNode node) {
        String text = node.toString();
        return text.length() > 64 ? text.substring(0, 64) + "..." : text;
    }

    private static String text(ObjectNode json, String name, boolean required, List<String> errors) {
        JsonNode node = json.get(name);
        if (node == null || node.isNull()) {
            if (required) {
                errors.add(name + ": missing");
            }
            return null;
        }
        if (!node.isTextual()) {
            errors.add(name + ": expected a string, got " + shown(node));
            return null;
        }
        return node.textValue();
    }
}
