package io.loadwise.console.api;

import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.RateLimitConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /api/rate-limits} and {@code /api/rate-limits/{name}}: the named per-client limits that routes refer to,
 * with each one's key table (keys, memory) and the share this replica enforces. A {@code PUT} of the collection
 * replaces every limit; a {@code PUT} of one name creates or replaces that limit. Changes are validated with the
 * whole configuration: removing a limit that a route still names is refused with that route's field path.
 */
final class RateLimitsResource {

    private final ClusterControl control;

    RateLimitsResource(ClusterControl control) {
        this.control = control;
    }

    Reply list(ApiCall call) {
        return Reply.ok(ListenerView.rateLimits(control));
    }

    Reply replaceAll(ApiCall call) throws ApiException, ConfigValidationException, IOException {
        control.updateRateLimits(ConfigLoader.parseRateLimits(call.jsonObject().toString()));
        return Reply.ok(ListenerView.rateLimits(control));
    }

    Reply get(ApiCall call) throws ApiException {
        return Reply.ok(require(call.pathParam(0)));
    }

    /** 201 when the name is new, 200 when it replaced a limit. */
    Reply put(ApiCall call) throws ApiException, ConfigValidationException, IOException {
        String name = call.pathParam(0);
        RateLimitConfig limit = ConfigLoader.parseRateLimit(call.jsonObject().toString());
        Map<String, RateLimitConfig> limits = new LinkedHashMap<>(control.config().rateLimitsOrEmpty());
        boolean created = limits.put(name, limit) == null;
        control.updateRateLimits(limits);
        return created ? Reply.created("/api/rate-limits/" + ClustersResource.encode(name), require(name))
                : Reply.ok(require(name));
    }

    Reply delete(ApiCall call) throws ApiException, ConfigValidationException {
        String name = call.pathParam(0);
        require(name);
        Map<String, RateLimitConfig> limits = new LinkedHashMap<>(control.config().rateLimitsOrEmpty());
        limits.remove(name);
        control.updateRateLimits(limits);
        return Reply.noContent();
    }

    private ListenerView.RateLimitView require(String name) throws ApiException {
        ListenerView.RateLimitView view = ListenerView.rateLimits(control).get(name);
        if (view == null) {
            throw ApiException.notFound("no rate limit named '" + name + "'");
        }
        return view;
    }
}
