package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.loadwise.policy.PolicyRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Fuzz target of the configuration path that files, REST request bodies and console forms share:
 * {@link ConfigLoader} (strict Jackson) and then {@link ConfigValidator}. Contract: parsing returns a
 * configuration or throws {@link ConfigValidationException} with at least one non-blank message;
 * validating returns a list of problems and never throws. A configuration that validates clean must be
 * written by {@link ConfigLoader#toJson}, as UTF-8 like {@link ConfigStore} does, as JSON that reads back
 * as the same configuration, because that is how a change made through the API survives a restart. Any other exception, a hang or an
 * OutOfMemoryError is a finding. Seeds: {@code ConfigLoaderFuzzTestInputs/load/}.
 */
class ConfigLoaderFuzzTest {

    private static final ConfigValidator VALIDATOR = new ConfigValidator(PolicyRegistry.load());

    @FuzzTest(maxDuration = "15s")
    @DictionaryEntries({"\"admin\":{", "\"listen\":", "\"token\":", "\"dataDir\":", "\"logging\":{", "\"level\":",
        "\"levels\":{", "\"accessLog\":", "\"maxClientConnections\":", "\"clusters\":[", "\"name\":", "\"mode\":",
        "\"tcp\"", "\"http\"", "\"policy\":", "\"policyOptions\":{", "\"balance\":", "\"per-connection\"",
        "\"affinity\":", "\"cookie\"", "\"affinityCookie\":", "\"connectTimeoutMs\":", "\"maxHeaderBytes\":",
        "\"agentPath\":", "\"trustedProxies\":[", "\"nodes\":[", "\"address\":", "\"weight\":", "\"enabled\":",
        "\"route\":", "\"agent\":{", "\"secret\":", "\"(hidden)\"", "\"jvm-aware\"", "\"static-wrr\"", "\"127.0.0.1:9090\"", "\"[::1]:0\"", "\"10.0.0.0/8\"",
        "2147483648", "1e400", "null", "true"})
    void load(byte[] input) {
        String json = new String(input, StandardCharsets.UTF_8);
        LoadwiseConfig config = parsedOrNull(json);
        if (config != null && VALIDATOR.validate(config).isEmpty()) {
            // as ConfigStore writes it: the UTF-8 bytes of toJson
            byte[] file = ConfigLoader.toJson(config).getBytes(StandardCharsets.UTF_8);
            String written = new String(file, StandardCharsets.UTF_8);
            LoadwiseConfig again = parsedOrNull(written);
            assertEquals(config, again, () -> "written as " + written + " from " + json);
            assertEquals(List.of(), VALIDATOR.validate(again));
        }
        ClusterConfig cluster = clusterOrNull(json);
        if (cluster != null) {
            VALIDATOR.validateCluster("cluster", cluster);
        }
    }

    private static LoadwiseConfig parsedOrNull(String json) {
        try {
            return ConfigLoader.parse(json);
        } catch (ConfigValidationException e) {
            assertNamesTheProblem(e);
            return null;
        }
    }

    private static ClusterConfig clusterOrNull(String json) {
        try {
            return ConfigLoader.parseCluster(json);
        } catch (ConfigValidationException e) {
            assertNamesTheProblem(e);
            return null;
        }
    }

    private static void assertNamesTheProblem(ConfigValidationException e) {
        assertFalse(e.errors().isEmpty(), "a rejection without a message");
        for (String error : e.errors()) {
            assertFalse(error == null || error.isBlank(), () -> "a blank message among " + e.errors());
        }
    }
}
