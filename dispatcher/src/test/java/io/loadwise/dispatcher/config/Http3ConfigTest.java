package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.ConfigValidatorTest.j;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestPki;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** http3 on listeners and listening clusters: read, written back, and refused with the field named. */
class Http3ConfigTest {

    @TempDir
    static Path dir;
    static String tls;
    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    @BeforeAll
    static void certificate() throws Exception {
        TestPki.Issued issued = new TestPki(dir).issue("localhost", "localhost", "localhost");
        tls = ",'tls':{'certificate':'" + issued.certificate() + "','key':'" + issued.key() + "'}";
    }

    private List<String> clusterErrors(String extra) throws Exception {
        return validator.validate(ConfigLoader.parse(j("{'admin':{'token':'test-token-0123456789'},'clusters':["
                + "{'name':'web','mode':'http','listen':'127.0.0.1:8443','policy':'round-robin'" + extra
                + ",'nodes':[{'name':'a','address':'127.0.0.1:9001'}]}]}")));
    }

    private List<String> listenerErrors(String extra) throws Exception {
        return validator.validate(ConfigLoader.parse(j("{'admin':{'token':'test-token-0123456789'},'clusters':["
                + "{'name':'web','mode':'http','policy':'round-robin','nodes':[{'name':'a','address':'127.0.0.1:9001'}]}],"
                + "'listeners':[{'name':'edge','listen':'127.0.0.1:8443'" + extra
                + ",'routes':[{'cluster':'web'}]}]}")));
    }

    @Test
    void goodSettingsPassAndRoundTrip() throws Exception {
        assertEquals(List.of(), clusterErrors(tls + ",'http3':{'enabled':true}"));
        assertEquals(List.of(), listenerErrors(tls + ",'http3':{'enabled':true,'maxConcurrentStreams':50,"
                + "'maxHeaderListSize':8192,'altSvcMaxAgeSeconds':3600,'maxConnectionsPerClient':4,"
                + "'retryTokenLifetimeSeconds':5}"));
        ClusterConfig c = ConfigLoader.parseCluster(j("{'name':'web','mode':'http','listen':'127.0.0.1:1',"
                + "'http3':{'enabled':true,'maxConcurrentStreams':7}}"));
        assertEquals(c, ConfigLoader.parseCluster(ConfigLoader.toJson(c)));
        assertEquals(7, c.http3().maxConcurrentStreamsOrDefault());
        assertEquals(86_400, c.http3().altSvcMaxAgeSecondsOrDefault());
        assertEquals(false, new Http3Config(null, null, null, null, null, null).enabledOrDefault());
    }

    @Test
    void http3NeedsTls() throws Exception {
        assertEquals(List.of("clusters[0].http3.enabled: HTTP/3 needs tls on the same listener (QUIC always"
                + " encrypts)"), clusterErrors(",'http3':{'enabled':true}"));
        assertEquals(List.of("listeners[0].http3.enabled: HTTP/3 needs tls on the same listener (QUIC always"
                + " encrypts)"), listenerErrors(",'http3':{'enabled':true}"));
        assertEquals(List.of(), listenerErrors(",'http3':{'enabled':false}"));
    }

    @Test
    void badLimitsAreNamed() throws Exception {
        List<String> errors = listenerErrors(tls + ",'http3':{'enabled':true,'maxConcurrentStreams':0,"
                + "'maxHeaderListSize':100,'altSvcMaxAgeSeconds':-1,'maxConnectionsPerClient':0,"
                + "'retryTokenLifetimeSeconds':301}");
        assertEquals(5, errors.size(), errors.toString());
        for (String field : List.of("maxConcurrentStreams", "maxHeaderListSize", "altSvcMaxAgeSeconds",
                "maxConnectionsPerClient", "retryTokenLifetimeSeconds")) {
            assertEquals(1, errors.stream().filter(e -> e.startsWith("listeners[0].http3." + field + ": ")).count(),
                    field + " in " + errors);
        }
    }

    @Test
    void aClusterWithoutItsOwnListenSetsItOnTheListener() throws Exception {
        List<String> errors = validator.validate(ConfigLoader.parse(j("{'admin':{'token':'test-token-0123456789'},"
                + "'clusters':[{'name':'web','mode':'http','policy':'round-robin','http3':{'enabled':false},"
                + "'nodes':[{'name':'a','address':'127.0.0.1:9001'}]}]}")));
        assertEquals(List.of("clusters[0].http3: only for a cluster in mode http with a listen of its own; set it"
                + " on the listener that routes to it"), errors);
    }
}
