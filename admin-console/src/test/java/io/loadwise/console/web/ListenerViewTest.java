package io.loadwise.console.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Http2Config;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.dispatcher.control.ListenerStatus;
import io.loadwise.dispatcher.tls.CertificateInfo;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The clusters page's listener line, and the cluster form with TLS fields. */
class ListenerViewTest {

    @Test
    void certificatesAreShownAndOneExpiringWithin14DaysIsMarked() {
        Instant soon = Instant.now().plus(5, ChronoUnit.DAYS);
        Instant later = Instant.now().plus(60, ChronoUnit.DAYS);
        ListenerStatus status = new ListenerStatus(List.of("h2", "http/1.1"), true, "BoringSSL",
                List.of("TLSv1.3", "TLSv1.2"), List.of(
                        new CertificateInfo("CN=shop.example", List.of("DNS:shop.example"), "CN=CA", later, List.of()),
                        new CertificateInfo("CN=api", List.of("DNS:*.api.example"), "CN=CA", soon,
                                List.of("*.api.example"))), List.of());
        String html = ClustersPage.listener(status);
        assertTrue(html.contains("Protocols <code>h2, http/1.1</code> · TLSv1.3/TLSv1.2 with BoringSSL"), html);
        assertTrue(html.contains("<p class=\"certificate\">Certificate <code>CN=shop.example</code> · SANs DNS:shop.example"),
                html);
        assertTrue(html.contains("<p class=\"certificate warning\">Certificate <code>CN=api</code> for *.api.example"),
                html);
        assertEquals(1, html.split("expires within 14 days", -1).length - 1, html);
    }

    @Test
    void switchingAClusterToTcpDropsItsHttpOnlyTlsFields() {
        ClusterConfig base = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("0.0.0.0:8443")
                .policy("round-robin").nodes(List.of(new NodeConfig("a", "127.0.0.1:1", null, null, null, null)))
                .tls(new TlsConfig("c.pem", "k.pem", null, null, null, null, null, null, null))
                .http2(new Http2Config(true, null, null)).build();
        ClusterForm form = ClusterForm.of(base);
        assertEquals("c.pem", form.build(base).tls().certificate(), "an HTTP edit keeps tls");
        form.values.put("mode", "tcp");
        ClusterConfig tcp = form.build(base);
        assertNull(tcp.tls());
        assertNull(tcp.http2());
    }
}
