package io.loadwise.dispatcher.tls;

import io.loadwise.dispatcher.config.AcmeChecks;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.Http2Config;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeTlsConfig;
import io.loadwise.dispatcher.config.TlsConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks of a cluster's {@code tls}, {@code http2} and {@code nodeTls} fields, for
 * {@code ConfigValidator}: values, and the files themselves (they must exist, parse, and pair up), so
 * that {@code validate} catches what {@code run} would fail on.
 */
public final class TlsConfigCheck {

    public static final int MIN_RELOAD_CHECK_MS = 100;
    public static final int MAX_RELOAD_CHECK_MS = 3_600_000;
    public static final int MAX_CONCURRENT_STREAMS = 10_000;
    private static final Set<String> CLIENT_AUTH = Set.of("none", "optional", "require");
    private static final Pattern SERVER_NAME = Pattern.compile(
            "(\\*\\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*",
            Pattern.CASE_INSENSITIVE);

    private TlsConfigCheck() {
    }

    /** Adds every problem of the cluster's TLS and HTTP/2 fields to {@code errors}, paths under {@code at}. */
    public static void check(String at, ClusterConfig cluster, List<String> errors) {
        if (cluster.mode() == Mode.TCP) {
            if (cluster.tls() != null) {
                errors.add(at + ".tls: only for mode http (a tcp cluster passes TLS through to its nodes)");
            }
            if (cluster.http2() != null) {
                errors.add(at + ".http2: only for mode http");
            }
            if (cluster.nodeTls() != null) {
                errors.add(at + ".nodeTls: only for mode http");
            }
            return;
        }
        if (cluster.tls() != null) {
            checkTls(at + ".tls", cluster.tls(), cluster.http2OrDefault().enabledOrDefault(), errors);
        }
        if (cluster.http2() != null) {
            checkHttp2(at + ".http2", cluster.http2(), errors);
            priorKnowledgeOnClearText(at + ".http2", cluster.http2(), cluster.tls() != null, errors);
        }
        if (cluster.nodeTls() != null) {
            checkNodeTls(at + ".nodeTls", cluster.nodeTls(), errors);
        }
    }

    /** Adds every problem of a listener's TLS and HTTP/2 fields to {@code errors}, paths under {@code at}. */
    public static void checkListener(String at, ListenerConfig listener, List<String> errors) {
        boolean http2 = listener.http2() == null || listener.http2().enabledOrDefault();
        if (listener.tls() != null) {
            checkTls(at + ".tls", listener.tls(), http2, errors);
        }
        if (listener.http2() != null) {
            checkHttp2(at + ".http2", listener.http2(), errors);
            priorKnowledgeOnClearText(at + ".http2", listener.http2(), listener.tls() != null, errors);
        }
    }

    private static void priorKnowledgeOnClearText(String at, Http2Config http2, boolean tls, List<String> errors) {
        if (http2.priorKnowledgeOnlyOrDefault() && (tls || !http2.enabledOrDefault())) {
            errors.add(at + ".priorKnowledgeOnly: only for a clear-text listener with HTTP/2 enabled (TLS picks h2 by ALPN)");
        }
    }

    /** What deserves a warning but does not stop the dispatcher: certificates expired or expiring soon. */
    public static List<String> warnings(LoadwiseConfig config, Instant now) {
        List<String> warnings = new ArrayList<>();
        List<ClusterConfig> clusters = config.clustersOrEmpty();
        for (int i = 0; i < clusters.size(); i++) {
            ClusterConfig cluster = clusters.get(i);
            if (cluster == null || cluster.tls() == null || cluster.mode() != Mode.HTTP) {
                continue;
            }
            String at = "clusters[" + i + "].tls";
            try {
                ServerTls loaded = ServerTls.load(at, cluster.tls(), TlsProviders.preferred(), List.of());
                warnings.addAll(ServerTls.expiryWarnings(at, loaded.certificates(), now));
            } catch (TlsFileException | RuntimeException e) {
                // an error, reported by check()
            }
            if (cluster.nodeTls() != null && !cluster.nodeTls().verifyHostnameOrDefault()) {
                warnings.add("clusters[" + i + "].nodeTls.verifyHostname: false: node certificates are not "
                        + "checked against the node's host name");
            }
        }
        return warnings;
    }

    private static void checkTls(String at, TlsConfig tls, boolean http2, List<String> errors) {
        int before = errors.size();
        if (tls.protocols() != null) {
            if (tls.protocols().isEmpty()) {
                errors.add(at + ".protocols: empty (leave it out for TLSv1.3 and TLSv1.2)");
            }
            for (String protocol : tls.protocols()) {
                if (!ServerTls.SUPPORTED_PROTOCOLS.contains(protocol)) {
                    errors.add(at + ".protocols: '" + protocol + "' is not one of TLSv1.2, TLSv1.3 "
                            + "(TLS 1.0 and 1.1 are obsolete, RFC 8996)");
                }
            }
        }
        checkNotMask(at, tls.keyPassword(), errors);
        if (tls.ciphers() != null && tls.ciphers().isEmpty()) {
            errors.add(at + ".ciphers: empty (leave it out for the default modern suites)");
        }
        if (tls.clientAuth() != null && !CLIENT_AUTH.contains(tls.clientAuth())) {
            errors.add(at + ".clientAuth: '" + tls.clientAuth() + "' is not none, optional or require");
        } else if (tls.clientCa() == null && !"none".equals(tls.clientAuthOrDefault())) {
            errors.add(at + ".clientAuth: " + tls.clientAuth() + " needs clientCa, the CAs client certificates "
                    + "must chain to");
        }
        if (tls.reloadCheckMs() != null && (tls.reloadCheckMs() < MIN_RELOAD_CHECK_MS
                || tls.reloadCheckMs() > MAX_RELOAD_CHECK_MS)) {
            errors.add(at + ".reloadCheckMs: " + tls.reloadCheckMs() + " out of range " + MIN_RELOAD_CHECK_MS
                    + ".." + MAX_RELOAD_CHECK_MS);
        }
        List<TlsConfig.SniCertificate> entries = tls.certificatesOrEmpty();
        for (int i = 0; i < entries.size(); i++) {
            TlsConfig.SniCertificate entry = entries.get(i);
            String entryAt = at + ".certificates[" + i + "]";
            if (entry == null) {
                errors.add(entryAt + ": missing");
                continue;
            }
            checkNotMask(entryAt, entry.keyPassword(), errors);
            if (entry.serverNamesOrEmpty().isEmpty()) {
                errors.add(entryAt + ".serverNames: missing (the names this certificate is served for)");
            }
            for (String name : entry.serverNamesOrEmpty()) {
                if (name == null || !SERVER_NAME.matcher(name).matches() || name.length() > 253) {
                    errors.add(entryAt + ".serverNames: '" + name + "' is not a host name (or *.domain)");
                }
            }
        }
        AcmeChecks.check(at, tls, errors);
        if (tls.acme() != null && tls.acme().trustedCa() != null) {
            try {
                PemFiles.certificates(tls.acme().trustedCa());
            } catch (TlsFileException e) {
                errors.add(at + ".acme.trustedCa: " + e.getMessage());
            }
        }
        if (errors.size() > before || awaitsAcme(tls)) {
            return;
        }
        try {
            ServerTls.load(at, tls, TlsProviders.preferred(), ServerTls.alpnFor(http2));
        } catch (TlsFileException e) {
            errors.add(e.getMessage());
        }
    }

    /** ACME's files that do not exist yet: the listener starts with a stand-in certificate until they do. */
    private static boolean awaitsAcme(TlsConfig tls) {
        return tls.acme() != null && !(java.nio.file.Files.exists(java.nio.file.Path.of(tls.certificate()))
                && java.nio.file.Files.exists(java.nio.file.Path.of(tls.key())));
    }

    /** The API's mask, sent where no password is in force for that key: named, rather than "wrong keyPassword". */
    private static void checkNotMask(String at, String keyPassword, List<String> errors) {
        if (TlsConfig.KEY_PASSWORD_SET.equals(keyPassword)) {
            errors.add(at + ".keyPassword: '" + TlsConfig.KEY_PASSWORD_SET + "' is what the API shows in place of a "
                    + "password, not a password; give the real one");
        }
    }

    private static void checkHttp2(String at, Http2Config http2, List<String> errors) {
        Integer streams = http2.maxConcurrentStreams();
        if (streams != null && (streams < 1 || streams > MAX_CONCURRENT_STREAMS)) {
            errors.add(at + ".maxConcurrentStreams: " + streams + " out of range 1.." + MAX_CONCURRENT_STREAMS);
        }
        Integer headers = http2.maxHeaderListSize();
        if (headers != null && (headers < 1024 || headers > 1024 * 1024)) {
            errors.add(at + ".maxHeaderListSize: " + headers + " out of range 1024..1048576");
        }
    }

    private static void checkNodeTls(String at, NodeTlsConfig nodeTls, List<String> errors) {
        if (nodeTls.ca() != null) {
            try {
                PemFiles.certificates(nodeTls.ca());
            } catch (TlsFileException e) {
                errors.add(at + ".ca: " + e.getMessage());
            }
        }
    }
}
