package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdminTokenTest {

    private static final String FILE_TOKEN = "token-from-the-file";
    private static final String ENV_TOKEN = "token-from-the-environment";
    private final AdminConfig withToken = new AdminConfig(null, FILE_TOKEN, null);

    @Test
    void environmentOverridesTheFile() throws Exception {
        assertEquals(ENV_TOKEN, AdminToken.resolve(withToken, Map.of(AdminToken.ENV, ENV_TOKEN)));
    }

    @Test
    void fileTokenIsUsedWithoutEnvironment() throws Exception {
        assertEquals(FILE_TOKEN, AdminToken.resolve(withToken, Map.of()));
        assertEquals(FILE_TOKEN, AdminToken.resolve(withToken, Map.of(AdminToken.ENV, "  ")));
    }

    @Test
    void missingTokenIsAClearError() {
        ConfigValidationException e = assertThrows(ConfigValidationException.class,
                () -> AdminToken.resolve(new AdminConfig(null, " ", null), Map.of()));
        assertEquals(List.of("admin.token: missing; set admin.token in the configuration file or the "
                + "LOADWISE_ADMIN_TOKEN environment variable (there is no default token)"), e.errors());
        assertThrows(ConfigValidationException.class, () -> AdminToken.resolve(null, Map.of()));
    }

    @Test
    void shortEnvironmentTokenIsRefusedByName() {
        ConfigValidationException e = assertThrows(ConfigValidationException.class,
                () -> AdminToken.resolve(withToken, Map.of(AdminToken.ENV, " fifteen-chars-- ")));
        assertEquals(List.of("LOADWISE_ADMIN_TOKEN: too short (15 characters); an admin token needs at least 16 "
                + "characters, for example the output of `openssl rand -hex 24`"), e.errors());
    }

    @Test
    void sixteenCharactersAreEnough() throws Exception {
        assertEquals("sixteen-chars-16", AdminToken.resolve(null, Map.of(AdminToken.ENV, "sixteen-chars-16")));
    }
}
