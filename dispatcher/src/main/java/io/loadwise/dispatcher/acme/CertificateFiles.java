package io.loadwise.dispatcher.acme;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The PEM files of an ACME certificate: written so that a reader sees the old file or the new one, never a part
 * (a temporary file in the same directory, flushed to disk, then renamed over the old one), the key readable by the
 * dispatcher's user only; and the stand-in a listener serves until its first certificate arrives.
 */
final class CertificateFiles {

    /**
     * How long a stand-in is valid: it is replaced within minutes when the CA answers, and long enough that the
     * listener's expiry warning (30 days) does not mistake it for a certificate running out.
     */
    static final Duration STAND_IN_VALIDITY = Duration.ofDays(90);
    static final String STAND_IN_ISSUER = "CN=Loadwise stand-in (awaiting an ACME certificate)";

    private CertificateFiles() {
    }

    /** Whether {@code certificate} is a stand-in {@link #standIn} made (one to replace at once). */
    static boolean isStandIn(X509Certificate certificate) {
        return certificate.getIssuerX500Principal().getName().equals(new javax.security.auth.x500.X500Principal(
                STAND_IN_ISSUER).getName());
    }

    static boolean present(Path certificate, Path key) {
        return Files.isRegularFile(certificate) && Files.isRegularFile(key);
    }

    /** Replaces {@code target} with {@code content} at once; {@code secret} files get mode 600 where POSIX allows. */
    static void writeAtomically(Path target, String content, boolean secret) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve("." + target.getFileName() + ".tmp-" + Long.toHexString(new SecureRandom().nextLong()));
        try {
            if (secret && dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } else {
                Files.createFile(tmp);
            }
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                out.write(java.nio.ByteBuffer.wrap(content.getBytes(StandardCharsets.US_ASCII)));
                out.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (FileAlreadyExistsException e) {
            throw new IOException("a temporary file collided, try again: " + tmp, e);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    static String certificatesPem(List<X509Certificate> chain) throws GeneralSecurityException {
        StringBuilder out = new StringBuilder();
        for (X509Certificate c : chain) {
            out.append(pem("CERTIFICATE", c.getEncoded()));
        }
        return out.toString();
    }

    static String keyPem(KeyPair pair) {
        return pem("PRIVATE KEY", pair.getPrivate().getEncoded()); // PKCS#8
    }

    static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    /** A self-signed certificate for {@code domains}: what the listener serves until the CA's arrives. */
    static X509Certificate standIn(KeyPair pair, List<String> domains, Instant now) throws GeneralSecurityException {
        GeneralName[] names = domains.stream().map(d -> new GeneralName(GeneralName.dNSName, d)).toArray(GeneralName[]::new);
        X500Name issuer = new X500Name(STAND_IN_ISSUER);
        try {
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer,
                    new BigInteger(64, new SecureRandom()), Date.from(now.minus(Duration.ofMinutes(1))),
                    Date.from(now.plus(STAND_IN_VALIDITY)), issuer, pair.getPublic())
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));
        } catch (OperatorCreationException | IOException e) {
            throw new GeneralSecurityException("cannot make the stand-in certificate: " + e.getMessage(), e);
        }
    }
}
