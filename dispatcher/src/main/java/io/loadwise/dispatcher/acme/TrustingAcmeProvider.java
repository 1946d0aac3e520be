package io.loadwise.dispatcher.acme;

import io.loadwise.dispatcher.tls.PemFiles;
import io.loadwise.dispatcher.tls.TlsFileException;
import java.io.IOException;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.shredzone.acme4j.connector.HttpConnector;
import org.shredzone.acme4j.connector.NetworkSettings;
import org.shredzone.acme4j.provider.GenericAcmeProvider;

/**
 * An https:// directory whose certificate chains to {@code acme.trustedCa} (a private CA such as step-ca, or Pebble)
 * rather than to the JDK's trusted CAs: acme4j's generic provider, with its HTTP client's trust replaced.
 */
final class TrustingAcmeProvider extends GenericAcmeProvider {

    private final SSLContext context;

    TrustingAcmeProvider(String trustedCaFile) throws IOException {
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            List<X509Certificate> cas = PemFiles.certificates(trustedCaFile);
            for (int i = 0; i < cas.size(); i++) {
                store.setCertificateEntry("ca-" + i, cas.get(i));
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
        } catch (GeneralSecurityException | TlsFileException e) {
            throw new IOException("acme.trustedCa " + trustedCaFile + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected HttpConnector createHttpConnector(NetworkSettings settings) {
        return new HttpConnector(settings) {
            @Override
            public HttpClient.Builder createClientBuilder() {
                return super.createClientBuilder().sslContext(context);
            }
        };
    }
}
