package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
                + " common, or a template with %{field} placeholders"), errors("{'accessLog':{'file':'a.log','format':'xml'}}"));
        assertEquals(List.of("logging.accessLog.file: blank"), errors("{'accessLog':{'format':'json'}}"));
        assertEquals(List.of("logging.accessLog: blank"), errors("{'accessLog':' '}"));
    }

    @Test
    void aTemplateIsValidatedWithItsMistakeNamed() throws Exception {
        assertEquals(List.of(), errors("{'accessLog':{'file':'a.log','format':'%{client} %{termination} %{ta}ms 100%%'}}"));
        assertEquals(List.of("logging.accessLog.format: unknown field 'clnt' at 0, expected one of "
                + String.join(", ", AccessLogTemplate.FIELDS)), errors("{'accessLog':{'file':'a.log','format':'%{clnt}'}}"));
        assertEquals(List.of("logging.accessLog.format: unterminated placeholder at 5: '%{' without '}'"),
                errors("{'accessLog':{'file':'a.log','format':'%{ta}%{th'}}"));
        assertEquals(List.of("logging.accessLog.format: '%' at 6 starts neither %{name} nor %%"),
                errors("{'accessLog':{'file':'a.log','format':'%{ta} %d'}}"));
        assertEquals(List.of("logging.accessLog.format: no %{field} in the template"),
                errors("{'accessLog':{'file':'a.log','format':'100%%'}}"));
        assertEquals(List.of("logging.accessLog.format: control character at 5: a line must stay one line"),
                errors("{'accessLog':{'file':'a.log','format':'%{ta}\\n'}}"));
        String huge = "%{ta}".repeat(1_000);
        assertEquals(List.of("logging.accessLog.format: template of 5000 characters, at most 4096"),
                errors("{'accessLog':{'file':'a.log','format':'" + huge + "'}}"));
        String longName = "x".repeat(10_000);
        List<String> named = errors("{'accessLog':{'file':'a.log','format':'%{" + longName.substring(0, 3_000) + "}'}}");
        assertEquals(1, named.size(), named.toString());
        assertTrue(named.get(0).startsWith("logging.accessLog.format: unknown field '" + "x".repeat(40) + "...' at 0"),
                "a long unknown name is shortened: " + named.get(0).substring(0, 120));
    }
}
