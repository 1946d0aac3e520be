package io.loadwise.dispatcher.tls;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.x509.AccessDescription;
import org.bouncycastle.asn1.x509.AuthorityInformationAccess;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateHolder;
import org.bouncycastle.cert.ocsp.BasicOCSPResp;
import org.bouncycastle.cert.ocsp.CertificateID;
import org.bouncycastle.cert.ocsp.CertificateStatus;
import org.bouncycastle.cert.ocsp.OCSPException;
import org.bouncycastle.cert.ocsp.OCSPReqBuilder;
import org.bouncycastle.cert.ocsp.OCSPResp;
import org.bouncycastle.cert.ocsp.SingleResp;
import org.bouncycastle.cert.ocsp.jcajce.JcaCertificateID;
import org.bouncycastle.operator.ContentVerifierProvider;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;

/**
 * One OCSP exchange (RFC 6960) for a certificate: the request to the responder its Authority Information Access
 * names, over HTTP POST, and the checks that make the answer fit to staple: successful, about this very certificate,
 * signed by its issuer or by a responder the issuer delegated to, current ({@code thisUpdate} not in the future,
 * {@code nextUpdate} not past). The bytes stapled are the responder's, untouched.
 */
final class OcspFetch {

    /** How long a staple without a {@code nextUpdate} is kept (RFC 6960 allows one; it is then refreshed often). */
    static final Duration WITHOUT_NEXT_UPDATE = Duration.ofHours(1);
    /** A response larger than this is not an OCSP response of one certificate. */
    static final int MAX_RESPONSE_BYTES = 64 * 1024;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(TIMEOUT).version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER).build();

    /** A response fit to staple, and until when. */
    record Staple(byte[] der, Instant thisUpdate, Instant nextUpdate, String status) {
    }

    private OcspFetch() {
    }

    /** The responder the certificate names (its AIA {@code id-ad-ocsp} URI), if any. */
    static Optional<URI> responder(X509Certificate leaf) {
        try {
            byte[] ext = leaf.getExtensionValue(Extension.authorityInfoAccess.getId());
            if (ext == null) {
                return Optional.empty();
            }
            AuthorityInformationAccess aia = AuthorityInformationAccess.getInstance(
                    ASN1Primitive.fromByteArray(ASN1OctetString.getInstance(ext).getOctets()));
            for (AccessDescription d : aia.getAccessDescriptions()) {
                if (AccessDescription.id_ad_ocsp.equals(d.getAccessMethod())
                        && d.getAccessLocation().getTagNo() == GeneralName.uniformResourceIdentifier) {
                    URI uri = URI.create(d.getAccessLocation().getName().toString());
                    if ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) {
                        return Optional.of(uri);
                    }
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // an unreadable extension: no responder
        }
        return Optional.empty();
    }

    static Staple fetch(URI responder, X509Certificate leaf, X509Certificate issuer, Instant now)
            throws IOException, InterruptedException {
        try {
            CertificateID id = new JcaCertificateID(new JcaDigestCalculatorProviderBuilder().build()
                    .get(CertificateID.HASH_SHA1), issuer, leaf.getSerialNumber());
            byte[] request = new OCSPReqBuilder().addRequest(id).build().getEncoded();
            HttpResponse<byte[]> answer = HTTP.send(HttpRequest.newBuilder(responder).timeout(TIMEOUT)
                    .header("Content-Type", "application/ocsp-request").header("Accept", "application/ocsp-response")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(request)).build(), HttpResponse.BodyHandlers.ofByteArray());
            if (answer.statusCode() != 200) {
                throw new IOException(responder + " answered HTTP " + answer.statusCode());
            }
            byte[] der = answer.body();
            if (der.length > MAX_RESPONSE_BYTES) {
                throw new IOException(responder + " answered " + der.length + " bytes, more than an OCSP response");
            }
            return check(der, id, issuer, now);
        } catch (OperatorCreationException | OCSPException | CertificateEncodingException e) {
            throw new IOException("OCSP for serial " + leaf.getSerialNumber().toString(16) + ": " + e.getMessage(), e);
        }
    }

    /** The checks of {@code der} as the answer about {@code id}; throws naming what is wrong. */
    static Staple check(byte[] der, CertificateID id, X509Certificate issuer, Instant now) throws IOException,
            OCSPException, OperatorCreationException, CertificateEncodingException {
        OCSPResp response = new OCSPResp(der);
        if (response.getStatus() != OCSPResp.SUCCESSFUL) {
            throw new IOException("the responder refused: status " + response.getStatus());
        }
        if (!(response.getResponseObject() instanceof BasicOCSPResp basic)) {
            throw new IOException("not a basic OCSP response");
        }
        if (!signedByIssuerOrDelegate(basic, issuer, now)) {
            throw new IOException("the response is signed by neither the issuer nor a responder it delegated to");
        }
        for (SingleResp single : basic.getResponses()) {
            if (!single.getCertID().equals(id)) {
                continue;
            }
            Instant thisUpdate = single.getThisUpdate().toInstant();
            Instant nextUpdate = single.getNextUpdate() == null ? thisUpdate.plus(WITHOUT_NEXT_UPDATE)
                    : single.getNextUpdate().toInstant();
            if (thisUpdate.isAfter(now.plus(Duration.ofMinutes(5)))) { // a few minutes' clock skew allowed
                throw new IOException("the response's thisUpdate " + thisUpdate + " is in the future");
            }
            if (!nextUpdate.isAfter(now)) {
                throw new IOException("the response is stale: nextUpdate " + nextUpdate);
            }
            CertificateStatus status = single.getCertStatus();
            String text = status == CertificateStatus.GOOD ? "good" : status.getClass().getSimpleName()
                    .replace("Status", "").toLowerCase(java.util.Locale.ROOT);
            return new Staple(der, thisUpdate, nextUpdate, text);
        }
        throw new IOException("the response is not about this certificate");
    }

    private static boolean signedByIssuerOrDelegate(BasicOCSPResp basic, X509Certificate issuer, Instant now)
            throws OperatorCreationException, OCSPException, CertificateEncodingException {
        JcaContentVerifierProviderBuilder verifiers = new JcaContentVerifierProviderBuilder();
        if (basic.isSignatureValid(verifiers.build(issuer.getPublicKey()))) {
            return true;
        }
        X509CertificateHolder issuerHolder = new JcaX509CertificateHolder(issuer);
        for (X509CertificateHolder responder : basic.getCerts()) {
            try {
                ContentVerifierProvider byIssuer = verifiers.build(issuer.getPublicKey());
                boolean delegated = responder.getIssuer().equals(issuerHolder.getSubject())
                        && responder.isValidOn(java.util.Date.from(now))
                        && responder.isSignatureValid(byIssuer)
                        && responder.getExtension(Extension.extendedKeyUsage) != null
                        && org.bouncycastle.asn1.x509.ExtendedKeyUsage.fromExtensions(responder.getExtensions())
                                .hasKeyPurposeId(KeyPurposeId.id_kp_OCSPSigning)
                        && basic.isSignatureValid(verifiers.build(responder));
                if (delegated) {
                    return true;
                }
            } catch (org.bouncycastle.cert.CertException | java.security.cert.CertificateException e) {
                // not this one
            }
        }
        return false;
    }
}
