package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.ConfigValidatorTest.config;
import static io.loadwise.dispatcher.config.ConfigValidatorTest.j;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.policy.PolicyRegistry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tls.acme}: what passes (files that do not exist yet included) and each field-named error. */
class AcmeConfigTest {

    @TempDir
    Path dir;
    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    private List<String> errors(String tlsExtra, String acme) throws Exception {
        return validator.validate(ConfigLoader.parse(config(j("{'name':'shop','mode':'http','listen':'127.0.0.1:8443'"
                + ",'policy':'round-robin','tls':{" + tlsExtra + "'acme':" + acme + "}"
                + ",'nodes':[{'name':'a','address':'127.0.0.1:9001'}]}"))));
    }

    private String files() {
        return "'certificate':'" + dir.resolve("acme/shop.pem") + "','key':'" + dir.resolve("acme/shop.key") + "',";
    }

    @Test
    void aCompleteAcmeBlockPassesBeforeItsFilesExist() throws Exception {
        assertEquals(List.of(), errors(files(), j("{'directory':'https://acme-v02.api.letsencrypt.org/directory',"
                + "'email':'ops@example.com','domains':['shop.example','www.shop.example'],'challenge':'http-01',"
                + "'renewBeforeDays':20}")));
        assertEquals(List.of(), errors(files(), j("{'directory':'acme://letsencrypt.org/staging',"
                + "'domains':['shop.example']}")));
    }

    @Test
    void eachBadFieldIsNamed() throws Exception {
        String at = "clusters[0].tls.acme";
        assertEquals(List.of(at + ": needs clusters[0].tls.certificate and clusters[0].tls.key, the files the obtained"
                + " certificate and its key are written to (they need not exist yet)"),
                errors("", j("{'directory':'https://ca.example/dir','domains':['shop.example']}")));
        assertEquals(List.of(at + ".directory: 'http://ca.example/dir' is not an https:// URL (RFC 8555 requires"
                + " HTTPS) or an acme:// URI"),
                errors(files(), j("{'directory':'http://ca.example/dir','domains':['shop.example']}")));
        assertEquals(List.of(at + ".directory: required, the CA's directory URL (Let's Encrypt: "
                + "https://acme-v02.api.letsencrypt.org/directory)"), errors(files(), j("{'domains':['a.example']}")));
        assertEquals(List.of(at + ".domains: required, the DNS names the certificate is for"),
                errors(files(), j("{'directory':'https://ca.example/dir'}")));
        assertEquals(List.of(
                at + ".domains[0]: '*.shop.example' is not a DNS name (no wildcards: http-01 and tls-alpn-01 cannot"
                        + " prove them; no addresses)",
                at + ".domains[1]: '192.0.2.1' is not a DNS name (no wildcards: http-01 and tls-alpn-01 cannot"
                        + " prove them; no addresses)",
                at + ".domains[3]: 'A.example' given twice"),
                errors(files(), j("{'directory':'https://ca.example/dir','domains':['*.shop.example','192.0.2.1',"
                        + "'a.example','A.example']}")));
        assertEquals(List.of(at + ".email: 'not mail' is not a mail address", at + ".challenge: 'dns-01' is not http-01"
                + " or tls-alpn-01", at + ".renewBeforeDays: 0 out of range 1..365"),
                errors(files(), j("{'directory':'https://ca.example/dir','domains':['a.example'],'email':'not mail',"
                        + "'challenge':'dns-01','renewBeforeDays':0}")));
        assertEquals(List.of(), errors(files(), j("{'directory':'https://ca.example/dir',"
                + "'domains':['a.example'],'challenge':'tls-alpn-01'}")));
        assertEquals(List.of(at + ".challenge: 'TLS-ALPN-01' is not http-01 or tls-alpn-01"), errors(files(),
                j("{'directory':'https://ca.example/dir','domains':['a.example'],'challenge':'TLS-ALPN-01'}")));
        assertEquals(List.of(at + ".trustedCa: only for an https:// directory (an acme:// one brings its own trust)",
                at + ".trustedCa: /nonexistent.pem: no such file"),
                errors(files(), j("{'directory':'acme://pebble/localhost:14000','domains':['a.example'],"
                        + "'trustedCa':'/nonexistent.pem'}")));
        assertEquals(1, errors(files(), j("{'directory':'https://ca.example/dir','domains':['a.example'],"
                + "'trustedCa':'" + dir.resolve("missing.pem") + "'}")).size(), "a trustedCa that does not load");
        List<String> a = new java.util.ArrayList<>();
        for (int i = 0; i < 101; i++) {
            a.add("'n" + i + ".example'");
        }
        assertEquals(List.of(at + ".domains: 101 names, at most 100"), errors(files(),
                j("{'directory':'https://ca.example/dir','domains':[" + String.join(",", a) + "]}")));
    }
}
