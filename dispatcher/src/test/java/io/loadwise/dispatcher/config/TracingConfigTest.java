package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.ConfigValidatorTest.j;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code tracing}: read with exactly its documented names, validated with field-named errors. */
class TracingConfigTest {

    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    private static LoadwiseConfig with(String tracing) throws ConfigValidationException {
        return ConfigLoader.parse(j("{'admin':{'token':'test-token-0123456789'},'tracing':" + tracing
                + ",'clusters':[]}"));
    }

    private List<String> errors(String tracing) throws ConfigValidationException {
        return validator.validate(with(tracing));
    }

    @Test
    void theDocumentedBlockIsReadAndValid() throws Exception {
        LoadwiseConfig config = with("{'otlpEndpoint':'http://collector:4318','sampleRatio':0.1}");
        assertEquals("http://collector:4318", config.tracing().otlpEndpoint());
        assertEquals(0.1, config.tracing().sampleRatioOrDefault());
        assertEquals("http://collector:4318/v1/traces", config.tracing().tracesUrl());
        assertEquals(List.of(), validator.validate(config));
        assertEquals(config, ConfigLoader.parse(ConfigLoader.toJson(config)), "written back as read");
        assertEquals(1.0, with("{'otlpEndpoint':'https://c/'}").tracing().sampleRatioOrDefault());
        assertEquals("https://c/v1/traces", with("{'otlpEndpoint':'https://c/'}").tracing().tracesUrl());
    }

    @Test
    void withoutTheBlockThereIsNoTracing() throws Exception {
        LoadwiseConfig config = ConfigLoader.parse(j("{'admin':{'token':'test-token-0123456789'},'clusters':[]}"));
        assertNull(config.tracing());
        assertFalse(ConfigLoader.toJson(config).contains("tracing"));
    }

    @Test
    void badValuesAreNamedByField() throws Exception {
        assertEquals(List.of("tracing.otlpEndpoint: missing (the collector's OTLP/HTTP URL, e.g. http://collector:4318)"),
                errors("{'sampleRatio':0.5}"));
        assertEquals(List.of("tracing.otlpEndpoint: 'collector:4318' is not an http:// or https:// URL"),
                errors("{'otlpEndpoint':'collector:4318'}"));
        assertEquals(List.of("tracing.otlpEndpoint: 'http:///x' names no host"), errors("{'otlpEndpoint':'http:///x'}"));
        assertTrue(errors("{'otlpEndpoint':'http://c:4318?x=1'}").get(0).startsWith("tracing.otlpEndpoint: "));
        assertTrue(errors("{'otlpEndpoint':'http://c d'}").get(0).startsWith("tracing.otlpEndpoint: not a URL"));
        assertEquals(List.of("tracing.sampleRatio: 1.5 is not between 0 and 1"),
                errors("{'otlpEndpoint':'http://c:4318','sampleRatio':1.5}"));
        assertEquals(List.of("tracing.sampleRatio: -0.1 is not between 0 and 1"),
                errors("{'otlpEndpoint':'http://c:4318','sampleRatio':-0.1}"));
    }

    @Test
    void anUnknownNameIsRefused() {
        ConfigValidationException e = assertThrows(ConfigValidationException.class,
                () -> with("{'otlpEndpoint':'http://c:4318','sampleRate':0.5}"));
        assertTrue(e.getMessage().contains("sampleRate"), e.getMessage());
    }
}
