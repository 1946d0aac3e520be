package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code config} section: each mistake is named with its field. */
class StoreConfigTest {

    private static List<String> errors(String configSection) throws ConfigValidationException {
        LoadwiseConfig config = ConfigLoader.parse("{\"admin\": {\"token\": \"test-token-0123456789\"}, \"config\": "
                + configSection + "}");
        return new ConfigValidator(PolicyRegistry.load()).validate(config);
    }

    @Test
    void theFileStoreNeedsNothingElse() throws Exception {
        assertEquals(List.of(), errors("{\"store\": \"file\"}"));
        assertEquals(List.of(), errors("{\"store\": \"etcd\", \"endpoints\": [\"http://127.0.0.1:2379\"],"
                + " \"prefix\": \"/loadwise/prod\", \"leaseTtlSeconds\": 5}"));
    }

    @Test
    void eachMistakeIsNamed() throws Exception {
        assertEquals(List.of("config.store: 'consul' unknown, expected file or etcd"), errors("{\"store\": \"consul\"}"));
        List<String> etcd = errors("{\"store\": \"etcd\", \"endpoints\": [\"127.0.0.1:2379\"], \"prefix\": \"loadwise/\","
                + " \"leaseTtlSeconds\": 1}");
        assertEquals(3, etcd.size(), etcd.toString());
        assertTrue(etcd.get(0).startsWith("config.endpoints[0]: '127.0.0.1:2379' is not an http:// or https:// URL"));
        assertTrue(etcd.get(1).startsWith("config.prefix: 'loadwise/' must start with /"));
        assertEquals("config.leaseTtlSeconds: 1 out of range 2..300", etcd.get(2));
        assertEquals(List.of("config.endpoints: required with store etcd, e.g. [\"http://127.0.0.1:2379\"]",
                "config.prefix: 'null' must start with / and not end with /, e.g. /loadwise/prod"),
                errors("{\"store\": \"etcd\"}"));
    }
}
