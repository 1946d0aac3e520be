package io.loadwise.console.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.dispatcher.config.AgentSettings;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code /api/clusters} and {@code /api/clusters/{name}}: list, read, create, replace and delete
 * clusters. Changes go through {@link ClusterControl}, which validates them exactly like the
 * configuration file and persists them before they take effect.
 */
final class ClustersResource {

    private final ClusterControl control;

    ClustersResource(ClusterControl control) {
        this.control = control;
    }

    /** The running cluster named in the path, as it is now, or 404. */
    static ClusterStatus require(ClusterControl control, String name) throws ApiException {
        ClusterStatus cluster = control.clusterStatus(name);
        if (cluster == null) {
            throw ApiException.notFound("no cluster named '" + name + "'");
        }
        return cluster;
    }

    Reply list(ApiCall call) {
        List<ClusterView> views = new ArrayList<>();
        for (ClusterStatus cluster : control.clusterStatuses()) {
            views.add(ClusterView.of(cluster));
        }
        return Reply.ok(views);
    }

    Reply get(ApiCall call) throws ApiException {
        return Reply.ok(ClusterView.of(require(control, call.pathParam(0))));
    }

    Reply create(ApiCall call) throws ApiException, ConfigValidationException, IOException {
        ClusterConfig config = ClusterBodies.parse(call.jsonObject());
        if (config.name() != null && control.clusterStatus(config.name()) != null) {
            throw new ApiException(409, "a cluster named '" + config.name() + "' already exists; "
                    + "PUT /api/clusters/" + config.name() + " replaces it");
        }
        control.createCluster(config);
        return Reply.created("/api/clusters/" + encode(config.name()),
                ClusterView.of(require(control, config.name())));
    }

    /** The body's {@code name} may be left out; if given it must match the path (no renaming). */
    Reply replace(ApiCall call) throws ApiException, ConfigValidationException, IOException {
        String name = call.pathParam(0);
        require(control, name);
        ObjectNode body = call.jsonObject();
        JsonNode bodyName = body.get("name");
        if (bodyName == null) {
            body.put("name", name);
        } else if (!bodyName.isTextual() || !bodyName.textValue().equals(name)) {
            throw new ApiException(400, "invalid configuration", List.of("name: " + bodyName
                    + " does not match the cluster '" + name + "' in the URL; clusters cannot be renamed"));
        }
        ClusterConfig inForce = require(control, name).config();
        control.updateCluster(name, keepHiddenKeyPasswords(keepHiddenSecret(ClusterBodies.parse(body), inForce), inForce));
        return Reply.ok(ClusterView.of(require(control, name)));
    }

    /**
     * A body edited from a {@code GET} carries {@value AgentSettings#HIDDEN} in place of the agent secret:
     * that means "the secret in force". Any other value replaces it; no {@code agent} removes it.
     */
    private static ClusterConfig keepHiddenSecret(ClusterConfig body, ClusterConfig inForce) {
        if (!AgentSettings.HIDDEN.equals(AgentSettings.secretOf(body)) || AgentSettings.secretOf(inForce) == null) {
            return body; // a mask with no secret behind it is refused by the validator, by name
        }
        return body.toBuilder().agent(inForce.agent()).build();
    }

    /**
     * A body edited from a {@code GET} carries {@value ClusterView#KEY_PASSWORD_SET} in place of each TLS key
     * password: that means "the password in force for this key file". Any other value replaces it.
     */
    private static ClusterConfig keepHiddenKeyPasswords(ClusterConfig body, ClusterConfig inForce) {
        if (body.tls() == null || inForce.tls() == null) {
            return body;
        }
        return body.toBuilder().tls(keepHiddenKeyPasswords(body.tls(), inForce.tls())).build();
    }

    /** {@code tls} with each {@value ClusterView#KEY_PASSWORD_SET} replaced by the password in force in {@code old}. */
    static TlsConfig keepHiddenKeyPasswords(TlsConfig tls, TlsConfig old) {
        if (tls == null || old == null) {
            return tls;
        }
        return tls.withKeyPasswords((password, keyFile) -> inForce(password, keyFile, old));
    }

    /** The password in force for {@code key} when {@code given} is the mask; {@code given} otherwise. */
    private static String inForce(String given, String key, TlsConfig old) {
        if (!ClusterView.KEY_PASSWORD_SET.equals(given) || key == null) {
            return given;
        }
        if (key.equals(old.key())) {
            return old.keyPassword();
        }
        if (old.certificates() != null) {
            for (TlsConfig.SniCertificate entry : old.certificates()) {
                if (entry != null && key.equals(entry.key())) {
                    return entry.keyPassword();
                }
            }
        }
        return given; // a mask for a key that had no password: the TLS check refuses it, naming the field
    }

    Reply delete(ApiCall call) throws ApiException, ConfigValidationException {
        String name = call.pathParam(0);
        require(control, name);
        control.deleteCluster(name);
        return Reply.noContent();
    }

    static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
