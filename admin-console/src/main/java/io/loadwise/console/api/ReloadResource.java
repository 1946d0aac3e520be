package io.loadwise.console.api;

import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.control.ClusterControl;

/**
 * {@code POST /api/reload}: re-reads the configuration (the file, or the file and etcd) and applies the
 * difference without dropping connections, like {@code kill -HUP}. An invalid configuration changes
 * nothing: 422 with the validator's messages. {@code GET /api/replicas}: the live replicas sharing the
 * configuration store.
 */
final class ReloadResource {

    private final ClusterControl control;

    ReloadResource(ClusterControl control) {
        this.control = control;
    }

    Reply reload(ApiCall call) throws ApiException {
        try {
            return Reply.ok(control.reload());
        } catch (ConfigValidationException e) {
            throw new ApiException(422, "the configuration is invalid; nothing was changed", e.errors());
        }
    }

    Reply replicas(ApiCall call) {
        return Reply.ok(control.replicas());
    }
}
