package io.loadwise.dispatcher.config;

import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Field-named errors for a TLS listener's {@code acme} ({@link AcmeConfig}). */
public final class AcmeChecks {

    /** Renewal ahead of expiry: at least a day (a CA's shortest certificates last six), at most a year. */
    public static final int MAX_RENEW_BEFORE_DAYS = 365;
    /** RFC 8555 has no limit; Let's Encrypt allows 100 names, which bounds an order's challenges too. */
    public static final int MAX_DOMAINS = 100;
    private static final Pattern DNS_NAME = Pattern.compile(
            "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*", Pattern.CASE_INSENSITIVE);
    private static final Pattern EMAIL = Pattern.compile("[^@\\s<>\"]{1,64}@[A-Za-z0-9.-]{1,253}");

    private AcmeChecks() {
    }

    /** The {@code acme} of the TLS settings at {@code at} ({@code ….tls}). */
    public static void check(String at, TlsConfig tls, List<String> errors) {
        AcmeConfig acme = tls.acme();
        if (acme == null) {
            return;
        }
        String here = at + ".acme";
        if (tls.certificate() == null || tls.key() == null) {
            errors.add(here + ": needs " + at + ".certificate and " + at + ".key, the files the obtained certificate"
                    + " and its key are written to (they need not exist yet)");
        }
        if (tls.keyPassword() != null) {
            errors.add(here + ": " + at + ".keyPassword cannot be used with acme (the key it writes is not encrypted;"
                    + " the file is readable by the dispatcher's user only)");
        }
        checkDirectory(here, acme.directory(), errors);
        if (acme.trustedCa() != null && acme.directory() != null && !acme.directory().startsWith("https://")) {
            errors.add(here + ".trustedCa: only for an https:// directory (an acme:// one brings its own trust)");
        }
        if (acme.email() != null && !EMAIL.matcher(acme.email()).matches()) {
            errors.add(here + ".email: '" + ListenerChecks.printable(acme.email()) + "' is not a mail address");
        }
        List<String> domains = acme.domainsOrEmpty();
        if (domains.isEmpty()) {
            errors.add(here + ".domains: required, the DNS names the certificate is for");
        } else if (domains.size() > MAX_DOMAINS) {
            errors.add(here + ".domains: " + domains.size() + " names, at most " + MAX_DOMAINS);
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < domains.size() && i < MAX_DOMAINS; i++) {
            String d = domains.get(i);
            if (d == null || d.length() > 253 || !DNS_NAME.matcher(d).matches() || d.chars().allMatch(
                    c -> c == '.' || Character.isDigit(c))) {
                errors.add(here + ".domains[" + i + "]: '" + ListenerChecks.printable(String.valueOf(d))
                        + "' is not a DNS name (no wildcards: http-01 and tls-alpn-01 cannot prove them; no addresses)");
            } else if (!seen.add(d.toLowerCase(java.util.Locale.ROOT))) {
                errors.add(here + ".domains[" + i + "]: '" + d + "' given twice");
            }
        }
        if (acme.challenge() != null && !AcmeConfig.CHALLENGES.contains(acme.challenge())) {
            errors.add(here + ".challenge: '" + ListenerChecks.printable(acme.challenge()) + "' is not "
                    + String.join(" or ", AcmeConfig.CHALLENGES));
        }
        if (acme.renewBeforeDays() != null && (acme.renewBeforeDays() < 1
                || acme.renewBeforeDays() > MAX_RENEW_BEFORE_DAYS)) {
            errors.add(here + ".renewBeforeDays: " + acme.renewBeforeDays() + " out of range 1.." + MAX_RENEW_BEFORE_DAYS);
        }
    }

    private static void checkDirectory(String here, String directory, List<String> errors) {
        if (directory == null) {
            errors.add(here + ".directory: required, the CA's directory URL (Let's Encrypt: "
                    + "https://acme-v02.api.letsencrypt.org/directory)");
            return;
        }
        try {
            URI uri = new URI(directory);
            boolean https = "https".equals(uri.getScheme()) && uri.getHost() != null;
            boolean acme = "acme".equals(uri.getScheme()) && uri.getHost() != null;
            if (!https && !acme) {
                errors.add(here + ".directory: '" + ListenerChecks.printable(directory) + "' is not an https:// URL"
                        + " (RFC 8555 requires HTTPS) or an acme:// URI");
            }
        } catch (java.net.URISyntaxException e) {
            errors.add(here + ".directory: '" + ListenerChecks.printable(directory) + "' is not a URL");
        }
    }
}
