package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code logging.accessLog} as a string (the old form, {@code loadwise} lines) or an object, and {@code requestId}. */
class AccessLogConfigTest {

    private static LoadwiseConfig parse(String logging) throws ConfigValidationException {
        return ConfigLoader.parse(("{'admin':{'listen':'127.0.0.1:8111','token':'test-token-0123456789'},"
                + "'logging':" + logging + ",'clusters':[{'name':'a','mode':'http','listen':'0.0.0.0:80',"
                + "'policy':'round-robin','nodes':[{'name':'n1','address':'app1:8080'}]}]}").replace('\'', '"'));
    }

    @Test
    void aStringIsTheFileInTheLoadwiseFormat() throws Exception {
        LoggingConfig logging = parse("{'accessLog':'logs/access.log'}").logging();
        assertEquals(new AccessLogConfig("logs/access.log", "loadwise"), logging.accessLog());
        assertEquals(true, logging.requestIdOrDefault());
    }

    @Test
    void anObjectDefaultsToJson() throws Exception {
        assertEquals("json", parse("{'accessLog':{'file':'-'}}").logging().accessLog().formatOrDefault());
        AccessLogConfig combined = parse("{'accessLog':{'file':'a.log','format':'combined'}}").logging().accessLog();
        assertEquals(new AccessLogConfig("a.log", "combined"), combined);
        assertFalse(parse("{'requestId':false}").logging().requestIdOrDefault());
    }

    private static List<String> errors(String logging) throws ConfigValidationException {
        return new ConfigValidator(PolicyRegistry.load()).validate(parse(logging));
    }

    @Test
    void badFormsAreNamed() throws Exception {
        assertEquals(List.of("logging.accessLog.format: unknown format 'xml', expected one of loadwise, json, combined,"
                + " common"), errors("{'accessLog':{'file':'a.log','format':'xml'}}"));
        assertEquals(List.of("logging.accessLog.file: blank"), errors("{'accessLog':{'format':'json'}}"));
        assertEquals(List.of("logging.accessLog: blank"), errors("{'accessLog':' '}"));
    }
}
