package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.ConfigValidatorTest.config;
import static io.loadwise.dispatcher.config.ConfigValidatorTest.j;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.policy.PolicyRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** nodeProtocol: read, written back, defaulted, and refused with the field named. */
class NodeProtocolConfigTest {

    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    private List<String> errors(String mode, String extra) throws Exception {
        return validator.validate(ConfigLoader.parse(config(j("{'name':'web','mode':'" + mode + "'"
                + ",'listen':'127.0.0.1:8080','policy':'round-robin'" + extra
                + ",'nodes':[{'name':'a','address':'127.0.0.1:9001'}]}"))));
    }

    @Test
    void goodSettingsPassAndRoundTrip() throws Exception {
        assertEquals(List.of(), errors("http", j(",'nodeProtocol':'h2c'")));
        assertEquals(List.of(), errors("http", j(",'nodeProtocol':'http1'")));
        assertEquals(List.of(), errors("http", j(",'nodeProtocol':'h2','nodeTls':{'verifyHostname':true}")));
        assertEquals(List.of(), errors("tcp", j(",'nodeProtocol':'http1'")));
        ClusterConfig c = ConfigLoader.parseCluster(j("{'name':'web','mode':'http','listen':'127.0.0.1:1',"
                + "'nodeProtocol':'h2c'}"));
        assertEquals(c, ConfigLoader.parseCluster(ConfigLoader.toJson(c)));
        assertEquals(NodeProtocol.H2C, c.nodeProtocolOrDefault());
        assertEquals(NodeProtocol.HTTP1, ConfigLoader.parseCluster(j("{'name':'web','mode':'http'}"))
                .nodeProtocolOrDefault());
    }

    @Test
    void badValuesAreNamed() throws Exception {
        assertEquals(List.of("clusters[0].nodeProtocol: 'h3' is not http1, h2 or h2c"),
                errors("http", j(",'nodeProtocol':'h3'")));
        assertEquals(List.of("clusters[0].nodeProtocol: only for http clusters (a tcp cluster relays bytes, whatever"
                + " the protocol)"), errors("tcp", j(",'nodeProtocol':'h2c'")));
        assertEquals(List.of("clusters[0].nodeProtocol: h2 is HTTP/2 over TLS and needs nodeTls; h2c is HTTP/2 in"
                + " clear text"), errors("http", j(",'nodeProtocol':'h2'")));
        assertEquals(List.of("clusters[0].nodeProtocol: HTTP/2 to the nodes balances each request (a stream ends with"
                + " it); balance per-connection needs http1"),
                errors("http", j(",'nodeProtocol':'h2c','balance':'per-connection'")));
        assertEquals(List.of("clusters[0].nodeProtocol: h2c is clear text but nodeTls is set; use h2 for HTTP/2 over"
                + " TLS"), errors("http", j(",'nodeProtocol':'h2c','nodeTls':{}")));
    }

    @Test
    void theGrpcGuidesExamplesAreValid() throws Exception {
        String doc = Files.readString(Path.of("../docs/grpc.md"));
        int start = 0;
        int examples = 0;
        while ((start = doc.indexOf("```json\n", start)) >= 0) {
            start += "```json\n".length();
            String json = doc.substring(start, doc.indexOf("```", start));
            // the certificate files are the operator's; DocsTest (admin-console) puts a test CA's in their place
            assertEquals(List.of(), validator.validate(ConfigLoader.parse(json)).stream()
                    .filter(e -> !e.endsWith(": no such file")).toList(), json);
            examples++;
        }
        assertEquals(2, examples, "the h2c and the h2 example");
    }
}
