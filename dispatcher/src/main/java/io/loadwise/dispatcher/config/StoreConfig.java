package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Where the clusters live ({@code "config"} in the file). Without it, or with {@code store: "file"}, the
 * file holds them. With {@code store: "etcd"} every replica loads them from etcd under {@code prefix}, watches
 * that prefix, and writes changes made through its API there; the file then holds only what is per replica
 * ({@code admin}, {@code logging}, thread and connection limits). See docs/scale-out.md.
 *
 * @param store {@code file} (default) or {@code etcd}
 * @param endpoints etcd client URLs, e.g. {@code http://10.0.0.5:2379}; required for etcd
 * @param prefix key prefix of this site, e.g. {@code /loadwise/prod}; required for etcd
 * @param leaseTtlSeconds how long a replica stays in the registry after it stopped renewing; default
 *     {@value #DEFAULT_LEASE_TTL_SECONDS}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StoreConfig(String store, List<String> endpoints, String prefix, Integer leaseTtlSeconds) {

    public static final String FILE = "file";
    public static final String ETCD = "etcd";
    public static final int DEFAULT_LEASE_TTL_SECONDS = 10;

    public boolean etcd() {
        return ETCD.equals(store);
    }

    public List<String> endpointsOrEmpty() {
        return endpoints == null ? List.of() : endpoints;
    }

    public int leaseTtlSecondsOrDefault() {
        return leaseTtlSeconds == null ? DEFAULT_LEASE_TTL_SECONDS : leaseTtlSeconds;
    }

    /** Errors of this section, each starting with its path; empty when valid. */
    List<String> validate() {
        List<String> errors = new java.util.ArrayList<>();
        if (store != null && !FILE.equals(store) && !ETCD.equals(store)) {
            errors.add("config.store: '" + store + "' unknown, expected file or etcd");
        }
        if (!etcd()) {
            return errors;
        }
        if (endpointsOrEmpty().isEmpty()) {
            errors.add("config.endpoints: required with store etcd, e.g. [\"http://127.0.0.1:2379\"]");
        }
        for (int i = 0; i < endpointsOrEmpty().size(); i++) {
            String endpoint = endpointsOrEmpty().get(i);
            if (endpoint == null || !endpoint.matches("https?://[^/\\s]+(:[0-9]{1,5})?/?")) {
                errors.add("config.endpoints[" + i + "]: '" + endpoint + "' is not an http:// or https:// URL of"
                        + " an etcd client port, e.g. http://127.0.0.1:2379");
            }
        }
        if (prefix == null || !prefix.matches("/[A-Za-z0-9._/-]*[A-Za-z0-9._-]")) {
            errors.add("config.prefix: '" + prefix + "' must start with / and not end with /, e.g. /loadwise/prod");
        }
        if (leaseTtlSeconds != null && (leaseTtlSeconds < 2 || leaseTtlSeconds > 300)) {
            errors.add("config.leaseTtlSeconds: " + leaseTtlSeconds + " out of range 2..300");
        }
        return errors;
    }
}
