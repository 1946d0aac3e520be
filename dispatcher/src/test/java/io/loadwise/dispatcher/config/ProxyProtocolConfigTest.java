package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.ConfigValidatorTest.config;
import static io.loadwise.dispatcher.config.ConfigValidatorTest.j;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.policy.PolicyRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** proxyProtocol and sendProxyProtocol: read, written back, and refused with the field named. */
class ProxyProtocolConfigTest {

    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    private List<String> errors(String mode, String extra) throws Exception {
        return validator.validate(ConfigLoader.parse(config(j("{'name':'web','mode':'" + mode + "'"
                + ",'listen':'127.0.0.1:8080','policy':'round-robin'" + extra
                + ",'nodes':[{'name':'a','address':'127.0.0.1:9001'}]}"))));
    }

    @Test
    void goodSettingsPassAndRoundTrip() throws Exception {
        assertEquals(List.of(), errors("tcp", j(",'proxyProtocol':{'accept':'v2','trustedSources':['10.0.0.0/8','::1'],"
                + "'headerTimeoutMs':500},'sendProxyProtocol':'v1'")));
        assertEquals(List.of(), errors("http", j(",'proxyProtocol':{'trustedSources':['192.0.2.1']}")));
        assertEquals(List.of(), errors("http", j(",'sendProxyProtocol':'v2'"))); // private node connections
        assertEquals(List.of(), errors("http", j(",'nodeProtocol':'http1','sendProxyProtocol':'v1'")));
        ClusterConfig c = ConfigLoader.parseCluster(j("{'name':'web','mode':'tcp','listen':'127.0.0.1:1',"
                + "'proxyProtocol':{'accept':'any','trustedSources':['10.0.0.0/8']},'sendProxyProtocol':'v2'}"));
        assertEquals(c, ConfigLoader.parseCluster(ConfigLoader.toJson(c)));
        assertEquals("any", c.proxyProtocol().acceptOrDefault());
        assertEquals(3_000, c.proxyProtocol().headerTimeoutMsOrDefault());
    }

    @Test
    void badValuesAreNamed() throws Exception {
        assertEquals(List.of("clusters[0].proxyProtocol.accept: 'v3' is not v1, v2 or any"),
                errors("tcp", j(",'proxyProtocol':{'accept':'v3','trustedSources':['10.0.0.0/8']}")));
        assertEquals(List.of("clusters[0].proxyProtocol.trustedSources[1]: 'nope' is not an address or CIDR block"),
                errors("tcp", j(",'proxyProtocol':{'trustedSources':['10.0.0.0/8','nope']}")));
        assertEquals(List.of("clusters[0].proxyProtocol.trustedSources[0]: '10.0.0.0/33': prefix length 33 is over 32"),
                errors("tcp", j(",'proxyProtocol':{'trustedSources':['10.0.0.0/33']}")));
        assertEquals(List.of("clusters[0].proxyProtocol.trustedSources: required, the addresses or CIDR blocks of the"
                + " balancers in front"), errors("http", j(",'proxyProtocol':{'accept':'v1'}")));
        assertEquals(List.of("clusters[0].sendProxyProtocol: 'v3' is not v1 or v2"),
                errors("tcp", j(",'sendProxyProtocol':'v3'")));
        assertEquals(List.of("clusters[0].sendProxyProtocol: not with nodeProtocol 'h2c' (a PROXY header names one"
                + " client, an HTTP/2 node connection carries many); use http1"),
                errors("http", j(",'nodeProtocol':'h2c','sendProxyProtocol':'v2'")));
    }

    @Test
    void theGuidesExampleIsValid() throws Exception {
        String doc = Files.readString(Path.of("../docs/proxy-protocol.md"));
        int section = doc.indexOf("## Behind a balancer");
        int start = doc.indexOf("```json\n", section) + "```json\n".length();
        String json = doc.substring(start, doc.indexOf("```", start));
        assertEquals(List.of(), validator.validate(ConfigLoader.parse(json)));
    }
}
