package io.loadwise.dispatcher.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.cert.ocsp.BasicOCSPRespBuilder;
import org.bouncycastle.cert.ocsp.CertificateID;
import org.bouncycastle.cert.ocsp.CertificateStatus;
import org.bouncycastle.cert.ocsp.OCSPResp;
import org.bouncycastle.cert.ocsp.OCSPRespBuilder;
import org.bouncycastle.cert.ocsp.RespID;
import org.bouncycastle.cert.ocsp.RevokedStatus;
import org.bouncycastle.cert.ocsp.jcajce.JcaCertificateID;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.junit.jupiter.api.Test;

/**
 * What makes an OCSP response fit to staple, case by case: only a successful, current answer about this very
 * certificate, signed by its issuer or by a responder the issuer delegated OCSP signing to.
 */
class OcspFetchTest {

    private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");

    private final KeyPair caKey = keys();
    private final X509Certificate ca = certificate("CN=Test CA", "CN=Test CA", caKey, caKey, true, false);
    private final KeyPair leafKey = keys();
    private final X509Certificate leaf = certificate("CN=localhost", "CN=Test CA", leafKey, caKey, false, false);

    private static KeyPair keys() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(256);
            return g.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate certificate(String subject, String issuer, KeyPair subjectKey, KeyPair issuerKey,
            boolean ca, boolean ocspSigning) {
        try {
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(new X500Name(issuer),
                    BigInteger.valueOf(NOW.toEpochMilli() ^ subject.hashCode()), Date.from(NOW.minus(Duration.ofDays(1))),
                    Date.from(NOW.plus(Duration.ofDays(30))), new X500Name(subject), subjectKey.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            if (ocspSigning) {
                b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_OCSPSigning));
            }
            return new JcaX509CertificateConverter().getCertificate(
                    b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey.getPrivate())));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private CertificateID id(X509Certificate about) throws Exception {
        return new JcaCertificateID(new JcaDigestCalculatorProviderBuilder().build().get(CertificateID.HASH_SHA1), ca,
                about.getSerialNumber());
    }

    /** A response about {@code id}, signed with {@code signer} (carrying {@code certs}), in force from/until. */
    private byte[] response(CertificateID id, CertificateStatus status, Instant thisUpdate, Instant nextUpdate,
            KeyPair signer, X509Certificate... certs) throws Exception {
        BasicOCSPRespBuilder b = new BasicOCSPRespBuilder(new RespID(new X500Name("CN=Test CA")));
        b.addResponse(id, status, Date.from(thisUpdate), nextUpdate == null ? null : Date.from(nextUpdate), null);
        X509CertificateHolder[] chain = new X509CertificateHolder[certs.length];
        for (int i = 0; i < certs.length; i++) {
            chain[i] = new JcaX509CertificateHolder(certs[i]);
        }
        return new OCSPRespBuilder().build(OCSPRespBuilder.SUCCESSFUL, b.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate()), chain, Date.from(thisUpdate)))
                .getEncoded();
    }

    private OcspFetch.Staple check(byte[] der) throws Exception {
        return OcspFetch.check(der, id(leaf), ca, NOW);
    }

    private String refusal(byte[] der) {
        return assertThrows(IOException.class, () -> check(der)).getMessage();
    }

    @Test
    void aCurrentAnswerSignedByTheIssuerIsStapledAsReceived() throws Exception {
        byte[] der = response(id(leaf), CertificateStatus.GOOD, NOW.minusSeconds(60), NOW.plusSeconds(3600), caKey);
        OcspFetch.Staple staple = check(der);
        assertEquals("good", staple.status());
        assertEquals(NOW.plusSeconds(3600), staple.nextUpdate());
        assertTrue(java.util.Arrays.equals(der, staple.der()), "the responder's bytes, untouched");
        OcspFetch.Staple revoked = check(response(id(leaf), new RevokedStatus(Date.from(NOW), 1), NOW, NOW.plusSeconds(60),
                caKey));
        assertEquals("revoked", revoked.status(), "a revocation is stapled too: the client must learn it");
        assertEquals(NOW.plus(OcspFetch.WITHOUT_NEXT_UPDATE),
                check(response(id(leaf), CertificateStatus.GOOD, NOW, null, caKey)).nextUpdate());
    }

    @Test
    void aDelegatedResponderNeedsTheOcspSigningPurposeAndTheIssuersSignature() throws Exception {
        KeyPair delegateKey = keys();
        X509Certificate delegate = certificate("CN=OCSP responder", "CN=Test CA", delegateKey, caKey, false, true);
        assertEquals("good", check(response(id(leaf), CertificateStatus.GOOD, NOW, NOW.plusSeconds(60), delegateKey,
                delegate)).status());
        X509Certificate noPurpose = certificate("CN=OCSP responder", "CN=Test CA", delegateKey, caKey, false, false);
        assertTrue(refusal(response(id(leaf), CertificateStatus.GOOD, NOW, NOW.plusSeconds(60), delegateKey, noPurpose))
                .contains("signed by neither"));
        KeyPair rogue = keys();
        X509Certificate selfMade = certificate("CN=OCSP responder", "CN=Test CA", delegateKey, rogue, false, true);
        assertTrue(refusal(response(id(leaf), CertificateStatus.GOOD, NOW, NOW.plusSeconds(60), delegateKey, selfMade))
                .contains("signed by neither"), "a delegate the issuer did not sign");
    }

    @Test
    void everythingElseIsRefusedWithTheReason() throws Exception {
        assertTrue(refusal(response(id(leaf), CertificateStatus.GOOD, NOW, NOW.plusSeconds(60), keys()))
                .contains("signed by neither"));
        X509Certificate other = certificate("CN=other", "CN=Test CA", keys(), caKey, false, false);
        assertTrue(refusal(response(id(other), CertificateStatus.GOOD, NOW, NOW.plusSeconds(60), caKey))
                .contains("not about this certificate"));
        assertTrue(refusal(response(id(leaf), CertificateStatus.GOOD, NOW.minusSeconds(7200), NOW.minusSeconds(1), caKey))
                .contains("stale"));
        assertTrue(refusal(response(id(leaf), CertificateStatus.GOOD, NOW.plusSeconds(3600), NOW.plusSeconds(7200), caKey))
                .contains("in the future"));
        assertTrue(refusal(new OCSPRespBuilder().build(OCSPRespBuilder.TRY_LATER, null).getEncoded())
                .contains("refused"));
        assertThrows(IOException.class, () -> check(new byte[] {0x30, 0x03, 0x0a, 0x01}), "truncated DER");
        assertThrows(IOException.class, () -> check("<html>captive portal</html>".getBytes()), "not DER at all");
    }
}
