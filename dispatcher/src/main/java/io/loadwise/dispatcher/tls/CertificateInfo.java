package io.loadwise.dispatcher.tls;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What an operator needs to know of a certificate in use: whom it names and until when.
 *
 * @param serverNames the SNI names it is served for; empty for the default certificate
 */
public record CertificateInfo(String subject, List<String> subjectAltNames, String issuer, Instant notAfter,
        List<String> serverNames) {

    /** Warn this long before a certificate expires. */
    public static final Duration EXPIRY_WARNING = Duration.ofDays(14);

    public static CertificateInfo of(X509Certificate certificate, List<String> serverNames) {
        return new CertificateInfo(certificate.getSubjectX500Principal().getName(), altNames(certificate),
                certificate.getIssuerX500Principal().getName(), certificate.getNotAfter().toInstant(),
                List.copyOf(serverNames));
    }

    /** Seconds until {@link #notAfter}; negative once expired. */
    public long secondsToExpiry(Instant now) {
        return Duration.between(now, notAfter).getSeconds();
    }

    /** Expired, or expiring within {@link #EXPIRY_WARNING}. */
    public boolean expiresSoon(Instant now) {
        return now.plus(EXPIRY_WARNING).isAfter(notAfter);
    }

    private static List<String> altNames(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> entries = certificate.getSubjectAlternativeNames();
            if (entries != null) {
                for (List<?> entry : entries) {
                    int type = (Integer) entry.get(0);
                    if (type == 2) {
                        names.add("DNS:" + entry.get(1));
                    } else if (type == 7) {
                        names.add("IP:" + entry.get(1));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            names.add("(unreadable: " + e.getMessage() + ")");
        }
        return List.copyOf(names);
    }
}
