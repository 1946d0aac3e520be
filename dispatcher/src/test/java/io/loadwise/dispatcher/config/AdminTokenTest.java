package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdminTokenTest {

    private final AdminConfig withToken = new AdminConfig(null, "from-file", null);

    @Test
    void environmentOverridesTheFile() throws Exception {
        assertEquals("from-env", AdminToken.resolve(withToken, Map.of(AdminToken.ENV, "from-env")));
    }

    @Test
    void fileTokenIsUsedWithoutEnvironment() throws Exception {
        assertEquals("from-file", AdminToken.resolve(withToken, Map.of()));
        assertEquals("from-file", AdminToken.resolve(withToken, Map.of(AdminToken.ENV, "  ")));
    }

    @Test
    void missingTokenIsAClearError() {
        ConfigValidationException e = assertThrows(ConfigValidationException.class,
                () -> AdminToken.resolve(new AdminConfig(null, " ", null), Map.of()));
        assertEquals(List.of("admin.token: missing; set admin.token in the configuration file or the "
                + "LOADWISE_ADMIN_TOKEN environment variable (there is no default token)"), e.errors());
        assertThrows(ConfigValidationException.class, () -> AdminToken.resolve(null, Map.of()));
    }
}
