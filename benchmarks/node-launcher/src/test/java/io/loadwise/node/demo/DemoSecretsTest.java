package io.loadwise.node.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DemoSecretsTest {

    /** Never set, so the demo makes its own secret, as it does for a token when LOADWISE_ADMIN_TOKEN is unset. */
    private static final String UNSET = "LOADWISE_DEMO_TEST_VARIABLE_THAT_IS_NEVER_SET";

    @Test
    void generatedSecretsAreLongEnoughForAnAdminToken() {
        String token = DemoMain.secret(UNSET);
        assertEquals(24, token.length(), token);
        assertTrue(token.matches("[A-Za-z0-9_-]+"), "safe to print in a curl line: " + token);
        assertNotEquals(token, DemoMain.secret(UNSET), "fresh each time");
    }
}
