package io.loadwise.console.auth;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Salted PBKDF2-HMAC-SHA256 password hashes, encoded as {@code pbkdf2-sha256:<iterations>:<salt>:<hash>}
 * (Base64). The iteration count travels with the hash, so raising {@link #DEFAULT_ITERATIONS} later keeps
 * old files verifiable. Comparison is constant-time ({@link MessageDigest#isEqual}).
 */
public final class PasswordHasher {

    /** OWASP's recommendation for PBKDF2-HMAC-SHA256 (its floor for SHA-512 is 210 000). */
    public static final int DEFAULT_ITERATIONS = 600_000;
    static final String SCHEME = "pbkdf2-sha256";
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;

    private final int iterations;
    private final SecureRandom random = new SecureRandom();

    public PasswordHasher() {
        this(DEFAULT_ITERATIONS);
    }

    /** Fewer iterations only for tests that hash many times; verification always uses the stored count. */
    PasswordHasher(int iterations) {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be positive");
        }
        this.iterations = iterations;
    }

    /** A fresh salt and the encoded hash of {@code password}. */
    public String hash(char[] password) {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        byte[] hash = derive(password, salt, iterations);
        Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
        return SCHEME + ":" + iterations + ":" + b64.encodeToString(salt) + ":" + b64.encodeToString(hash);
    }

    /**
     * @throws IllegalArgumentException when {@code encoded} is not a hash this class wrote
     */
    public static boolean verify(char[] password, String encoded) {
        String[] parts = encoded.trim().split(":", -1);
        if (parts.length != 4 || !parts[0].equals(SCHEME)) {
            throw new IllegalArgumentException("not a " + SCHEME + " hash (expected " + SCHEME
                    + ":<iterations>:<salt>:<hash>)");
        }
        int storedIterations;
        byte[] salt;
        byte[] expected;
        try {
            storedIterations = Integer.parseInt(parts[1]);
            salt = Base64.getDecoder().decode(parts[2]);
            expected = Base64.getDecoder().decode(parts[3]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("corrupt " + SCHEME + " hash: " + e.getMessage(), e);
        }
        if (storedIterations < 1 || salt.length == 0 || expected.length == 0) {
            throw new IllegalArgumentException("corrupt " + SCHEME + " hash: empty salt, hash or iteration count");
        }
        return MessageDigest.isEqual(expected, derive(password, salt, storedIterations));
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java 17 runtime has PBKDF2WithHmacSHA256", e);
        } finally {
            spec.clearPassword();
        }
    }

    /** Overwrites a password held in memory once it is no longer needed. */
    public static void wipe(char[] password) {
        if (password != null) {
            Arrays.fill(password, '\0');
        }
    }
}
