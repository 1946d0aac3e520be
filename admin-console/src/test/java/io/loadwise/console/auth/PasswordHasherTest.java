package io.loadwise.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PasswordHasherTest {

    private final PasswordHasher fast = new PasswordHasher(1_000);

    @Test
    void defaultHashUsesAtLeastOwaspIterationsAndVerifies() {
        String encoded = new PasswordHasher().hash("correct horse".toCharArray());
        String[] parts = encoded.split(":");
        assertEquals("pbkdf2-sha256", parts[0]);
        assertTrue(Integer.parseInt(parts[1]) >= 210_000, encoded);
        assertTrue(PasswordHasher.verify("correct horse".toCharArray(), encoded));
        assertFalse(PasswordHasher.verify("correct horsE".toCharArray(), encoded));
    }

    @Test
    void samePasswordGetsADifferentSaltEachTime() {
        String a = fast.hash("same password".toCharArray());
        String b = fast.hash("same password".toCharArray());
        assertNotEquals(a, b);
        assertNotEquals(a.split(":")[2], b.split(":")[2], "salts must differ");
        assertTrue(PasswordHasher.verify("same password".toCharArray(), a));
        assertTrue(PasswordHasher.verify("same password".toCharArray(), b));
    }

    @Test
    void verificationUsesTheStoredIterationCount() {
        String encoded = new PasswordHasher(2_000).hash("pw-12345".toCharArray());
        assertTrue(PasswordHasher.verify("pw-12345".toCharArray(), encoded));
        String tampered = encoded.replace(":2000:", ":2001:");
        assertFalse(PasswordHasher.verify("pw-12345".toCharArray(), tampered));
    }

    @Test
    void emptyAndPrefixPasswordsDoNotMatch() {
        String encoded = fast.hash("abcdefgh".toCharArray());
        assertFalse(PasswordHasher.verify(new char[0], encoded));
        assertFalse(PasswordHasher.verify("abcdefg".toCharArray(), encoded));
        assertFalse(PasswordHasher.verify("abcdefghi".toCharArray(), encoded));
    }

    @Test
    void malformedHashesAreRefusedWithAReason() {
        IllegalArgumentException wrongScheme = assertThrows(IllegalArgumentException.class,
                () -> PasswordHasher.verify("x".toCharArray(), "md5:1:AA:BB"));
        assertTrue(wrongScheme.getMessage().contains("pbkdf2-sha256"), wrongScheme.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PasswordHasher.verify("x".toCharArray(), "pbkdf2-sha256:x:AA:BB"));
        assertThrows(IllegalArgumentException.class, () -> PasswordHasher.verify("x".toCharArray(), "pbkdf2-sha256:10::"));
        assertThrows(IllegalArgumentException.class, () -> PasswordHasher.verify("x".toCharArray(), "plain"));
    }
}
