package io.loadwise.console.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/listeners}, {@code /api/listeners/{name}} and {@code /api/listeners/{name}/routes}: the ports of
 * {@code listeners[]} with their route tables and per-route counters, and edits of them. Bodies are parsed by the
 * configuration file's own parser and every change goes through {@link ClusterControl}, which validates the whole
 * configuration (errors name the field: {@code listeners[0].routes[2].cluster: unknown cluster 'x'}), persists it
 * and swaps the route table atomically.
 */
final class ListenersResource {

    private final ClusterControl control;

    ListenersResource(ClusterControl control) {
        this.control = control;
    }

    /** The configured listener named in the path, as it runs now, or 404. */
    private ListenerView require(String name) throws ApiException {
        ListenerView listener = ListenerView.find(control, name);
        if (listener == null) {
            throw ApiException.notFound("no listener named '" + name + "'");
        }
        return listener;
    }

    /** Every listener, and every rate limit with its key table and replica share. */
    Reply list(ApiCall call) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("listeners", ListenerView.all(control));
        body.put("rateLimits", ListenerView.rateLimits(control));
        return Reply.ok(body);
    }

    Reply get(ApiCall call) throws ApiException {
        return Reply.ok(require(call.pathParam(0)));
    }

    Reply create(ApiCall call) throws ApiException, ConfigValidationException, IOException {
        ListenerConfig listener = ConfigLoader.parseListener(call.jsonObject().toString());
        if (listener.name() != null && ListenerView.find(control, listener.name()) != null) {
            throw new ApiException(409, "a listener named '" + listener.name() + "' already exists; "
                    + "PUT /api/listeners/" + listener.name() + " replaces it");
        }
        control.createListener(listener);
        return Reply.created("/api/listeners/" + ClustersResource.encode(listener.name()), require(listener.name()));
    }

    /** The body's {@code name} may be left out; if given it must match the path (no renaming). */
    Reply replace(ApiCall call) throws ApiException, ConfigValidationException, IOException {
        String name = call.pathParam(0);
        ListenerConfig inForce = inForce(name);
        ObjectNode body = call.jsonObject();
        JsonNode bodyName = body.get("name");
        if (bodyName == null) {
            body.put("name", name);
        } else if (!bodyName.isTextual() || !bodyName.textValue().equals(name)) {
            throw new ApiException(400, "invalid configuration", List.of("name: " + bodyName
                    + " does not match the listener '" + name + "' in the URL; listeners cannot be renamed"));
        }
        control.updateListener(name, keepHiddenKeyPasswords(ConfigLoader.parseListener(body.toString()), inForce));
        return Reply.ok(require(name));
    }

    Reply delete(ApiCall call) throws ApiException, ConfigValidationException, IOException {
        String name = call.pathParam(0);
        inForce(name);
        control.deleteListener(name);
        return Reply.noContent();
    }

    /** {@code {"routes": [...]}}: the route table with counters. */
    Reply routes(ApiCall call) throws ApiException {
        return Reply.ok(Map.of("routes", require(call.pathParam(0)).routes()));
    }

    /** Replaces the route table ({@code {"routes": [...]}}), nothing else of the listener. */
    Reply replaceRoutes(ApiCall call) throws ApiException, ConfigValidationException, IOException {
        String name = call.pathParam(0);
        ListenerConfig inForce = inForce(name);
        ObjectNode body = call.jsonObject();
        for (Iterator<String> fields = body.fieldNames(); fields.hasNext();) {
            String field = fields.next();
            if (!field.equals("routes")) {
                throw new ApiException(400, "invalid configuration", List.of(field + ": unknown field (the body is"
                        + " {\"routes\": [...]}; PUT /api/listeners/" + name + " replaces the whole listener)"));
            }
        }
        if (!body.path("routes").isArray()) {
            throw new ApiException(400, "invalid configuration", List.of("routes: missing (expected an array)"));
        }
        ObjectNode listener = (ObjectNode) ApiJson.MAPPER.readTree(ConfigLoader.toJson(inForce));
        listener.set("routes", body.get("routes"));
        control.updateListener(name, ConfigLoader.parseListener(listener.toString()));
        return Reply.ok(Map.of("routes", require(name).routes()));
    }

    private ListenerConfig inForce(String name) throws ApiException {
        for (ListenerConfig listener : control.config().listenersOrEmpty()) {
            if (name.equals(listener.name())) {
                return listener;
            }
        }
        throw ApiException.notFound("no listener named '" + name + "'");
    }

    /** A body edited from a {@code GET} carries the mask for each TLS key password: the password in force. */
    private static ListenerConfig keepHiddenKeyPasswords(ListenerConfig body, ListenerConfig inForce) {
        if (body.tls() == null || inForce.tls() == null) {
            return body;
        }
        return new ListenerConfig(body.name(), body.listen(),
                ClustersResource.keepHiddenKeyPasswords(body.tls(), inForce.tls()), body.http2(), body.routes(),
                body.trustedProxies(), body.maxClientConnections(), body.maxConnectionsPerClient(),
                body.idleTimeoutMs(), body.headerTimeoutMs(), body.maxHeaderBytes(), body.proxyProtocol(), body.http3());
    }
}
