package io.loadwise.dispatcher.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Reads PEM certificates and private keys with the JDK alone, and says in plain words what is wrong
 * with them: a missing file, no certificate in it, a key in a format we cannot read, a wrong password,
 * a key that does not belong to its certificate. Each failure is a {@link TlsFileException} whose message
 * is meant for {@code validate}'s output, after the field's path.
 */
public final class PemFiles {

    private static final Pattern KEY_BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----([A-Za-z0-9+/=\\s]+?)-----END \\1-----");
    /** PBES2 (RFC 8018), what {@code openssl pkcs8 -topk8 -v2 aes-256-cbc} and OpenSSL 3's defaults write. */
    private static final String PBES2_OID = "1.2.840.113549.1.5.13";

    private PemFiles() {
    }

    /** The certificates of a PEM file, leaf first. */
    public static List<X509Certificate> certificates(String file) throws TlsFileException {
        byte[] bytes = read(file);
        try {
            List<X509Certificate> chain = new ArrayList<>();
            for (var certificate : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(bytes))) {
                chain.add((X509Certificate) certificate);
            }
            if (chain.isEmpty()) {
                throw new TlsFileException(file + ": no PEM certificate in the file");
            }
            return chain;
        } catch (CertificateException e) {
            throw new TlsFileException(file + ": not a PEM certificate (" + e.getMessage() + ")");
        }
    }

    /**
     * The private key of a PEM file: PKCS#8, plain ({@code BEGIN PRIVATE KEY}) or encrypted with
     * {@code password} ({@code BEGIN ENCRYPTED PRIVATE KEY}).
     */
    public static PrivateKey privateKey(String file, String password) throws TlsFileException {
        String text = new String(read(file), StandardCharsets.US_ASCII);
        Matcher block = KEY_BLOCK.matcher(text);
        if (!block.find()) {
            throw new TlsFileException(file + ": no PEM private key in the file");
        }
        String type = block.group(1);
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(block.group(2));
        } catch (IllegalArgumentException e) {
            throw new TlsFileException(file + ": the private key is not valid base64");
        }
        switch (type) {
            case "PRIVATE KEY":
                return pkcs8(file, new PKCS8EncodedKeySpec(der));
            case "ENCRYPTED PRIVATE KEY":
                if (password == null) {
                    throw new TlsFileException(file + ": the private key is encrypted and no keyPassword is given");
                }
                return pkcs8(file, decrypt(file, der, password));
            default:
                throw new TlsFileException(file + ": a '" + type + "' block cannot be read; convert the key to "
                        + "PKCS#8 with: openssl pkcs8 -topk8 -nocrypt -in " + Path.of(file).getFileName()
                        + " -out key.pem");
        }
    }

    /** Throws unless {@code key} is the private key of {@code certificate}: it signs, the certificate verifies. */
    public static void checkPair(X509Certificate certificate, PrivateKey key, String keyFile, String certFile)
            throws TlsFileException {
        byte[] probe = "loadwise key check".getBytes(StandardCharsets.US_ASCII);
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            case "Ed448" -> "Ed448";
            case "RSASSA-PSS" -> "RSASSA-PSS";
            default -> null;
        };
        if (algorithm == null) {
            throw new TlsFileException(keyFile + ": " + key.getAlgorithm() + " keys are not supported");
        }
        if (!key.getAlgorithm().equals(certificate.getPublicKey().getAlgorithm())
                && !(key.getAlgorithm().startsWith("Ed") && certificate.getPublicKey().getAlgorithm().startsWith("Ed"))) {
            throw mismatch(keyFile, certFile);
        }
        try {
            Signature signer = Signature.getInstance(algorithm);
            if ("RSASSA-PSS".equals(algorithm)) {
                signer.setParameter(new java.security.spec.PSSParameterSpec("SHA-256", "MGF1",
                        java.security.spec.MGF1ParameterSpec.SHA256, 32, 1));
            }
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            if ("RSASSA-PSS".equals(algorithm)) {
                verifier.setParameter(new java.security.spec.PSSParameterSpec("SHA-256", "MGF1",
                        java.security.spec.MGF1ParameterSpec.SHA256, 32, 1));
            }
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            if (!verifier.verify(signature)) {
                throw mismatch(keyFile, certFile);
            }
        } catch (GeneralSecurityException e) {
            throw mismatch(keyFile, certFile);
        }
    }

    private static TlsFileException mismatch(String keyFile, String certFile) {
        return new TlsFileException(keyFile + ": the private key does not belong to the certificate in " + certFile);
    }

    private static PrivateKey pkcs8(String file, PKCS8EncodedKeySpec spec) throws TlsFileException {
        for (String algorithm : new String[] {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // not this algorithm: try the next
            }
        }
        throw new TlsFileException(file + ": the private key is not an RSA, EC or EdDSA key the JDK can read");
    }

    private static PKCS8EncodedKeySpec decrypt(String file, byte[] der, String password) throws TlsFileException {
        EncryptedPrivateKeyInfo info;
        try {
            info = new EncryptedPrivateKeyInfo(der);
        } catch (IOException e) {
            throw new TlsFileException(file + ": the encrypted private key is malformed");
        }
        String algorithm = info.getAlgName();
        AlgorithmParameters parameters = info.getAlgParameters();
        if (("PBES2".equals(algorithm) || PBES2_OID.equals(algorithm)) && parameters != null) {
            algorithm = parameters.toString(); // e.g. PBEWithHmacSHA256AndAES_256
        }
        Cipher cipher;
        SecretKey secret;
        try {
            secret = SecretKeyFactory.getInstance(algorithm).generateSecret(new PBEKeySpec(password.toCharArray()));
            cipher = Cipher.getInstance(algorithm);
        } catch (GeneralSecurityException e) {
            throw new TlsFileException(file + ": the key's encryption (" + algorithm + ") is not supported; "
                    + "re-encrypt it with: openssl pkcs8 -topk8 -v2 aes-256-cbc");
        }
        try {
            cipher.init(Cipher.DECRYPT_MODE, secret, parameters);
            return info.getKeySpec(cipher);
        } catch (GeneralSecurityException e) {
            throw new TlsFileException(file + ": wrong keyPassword (the key cannot be decrypted with it)");
        }
    }

    private static byte[] read(String file) throws TlsFileException {
        try {
            return Files.readAllBytes(Path.of(file));
        } catch (NoSuchFileException e) {
            throw new TlsFileException(file + ": no such file");
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new TlsFileException(file + ": cannot read (" + e.getMessage() + ")");
        }
    }
}
