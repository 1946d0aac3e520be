package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Found by ConfigLoaderFuzzTest: half of a UTF-16 surrogate pair (a lone {@code \ud800} escape) was
 * accepted, then written to the UTF-8 configuration file as {@code ?}, so the configuration read back after
 * a restart was not the one validated. Such text is now rejected, by path, wherever it is.
 */
class ConfigLoaderSurrogateTest {

    private static final String PROBLEM = ": holds half of a UTF-16 surrogate pair (a \\uD800-\\uDFFF escape"
            + " without its partner), which the UTF-8 configuration file cannot store";

    private static List<String> errorsOf(String json) {
        return assertThrows(ConfigValidationException.class, () -> ConfigLoader.parse(json)).errors();
    }

    @Test
    void halfAPairIsRejectedByPath() {
        assertEquals(List.of("admin.dataDir" + PROBLEM),
                errorsOf("{\"admin\":{\"token\":\"0123456789abcdef\",\"dataDir\":\"data\\ud800\"}}"));
        assertEquals(List.of("clusters[0].nodes[1].agentPath" + PROBLEM),
                errorsOf("{\"clusters\":[{\"nodes\":[{},{\"agentPath\":\"/m\\udc00x\"}]}]}"));
        assertEquals(List.of("clusters[0].policyOptions.a\ud800" + PROBLEM),
                errorsOf("{\"clusters\":[{\"policyOptions\":{\"a\\ud800\":1}}]}"));
        assertEquals(List.of("logging.file" + PROBLEM), errorsOf("{\"logging\":{\"file\":\"\ud800\"}}"));
        ConfigValidationException api = assertThrows(ConfigValidationException.class,
                () -> ConfigLoader.parseCluster("{\"name\":\"a\",\"agentPath\":\"/\\ud83d\"}"));
        assertEquals(List.of("agentPath" + PROBLEM), api.errors());
    }

    @Test
    void wholePairsAndEscapedBackslashesAreFine() throws Exception {
        LoadwiseConfig config = ConfigLoader.parse(
                "{\"admin\":{\"token\":\"\\ud83d\\ude00 \\\\ud800 \u00e9t\u00e9\",\"dataDir\":\"\ud83d\ude00\"}}");
        assertEquals("\ud83d\ude00 \\ud800 \u00e9t\u00e9", config.admin().token());
        assertEquals("\ud83d\ude00", config.admin().dataDir());
    }

    @Test
    void theCheckFindsOnlyLoneHalves() {
        assertEquals(false, UnpairedSurrogates.broken("plain \ud83d\ude00"));
        assertEquals(true, UnpairedSurrogates.broken("\ude00\ud83d"));
        assertEquals(true, UnpairedSurrogates.broken("end \ud83d"));
    }
}
