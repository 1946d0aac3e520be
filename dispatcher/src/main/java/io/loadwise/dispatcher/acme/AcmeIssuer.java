package io.loadwise.dispatcher.acme;

import io.loadwise.dispatcher.config.AcmeConfig;
import io.loadwise.dispatcher.tls.AlpnChallenges;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.shredzone.acme4j.AccountBuilder;
import org.shredzone.acme4j.Authorization;
import org.shredzone.acme4j.Certificate;
import org.shredzone.acme4j.Login;
import org.shredzone.acme4j.Order;
import org.shredzone.acme4j.Session;
import org.shredzone.acme4j.Status;
import org.shredzone.acme4j.challenge.Challenge;
import org.shredzone.acme4j.challenge.Http01Challenge;
import org.shredzone.acme4j.challenge.TlsAlpn01Challenge;
import org.shredzone.acme4j.exception.AcmeException;
import org.shredzone.acme4j.util.KeyPairUtils;

/**
 * One certificate order with acme4j (RFC 8555 §7.4): the account (made once, its key kept beside the certificate's
 * key), an order for the names, each name's challenge answered while the CA checks it (http-01 through
 * {@link AcmeChallenges}, tls-alpn-01 through {@link AlpnChallenges}), a fresh key and its CSR, and the chain. Blocking: runs on the ACME thread, never an event loop.
 */
final class AcmeIssuer {

    /** How long one step (a name's check, the finalization) may take before the order is given up. */
    static final Duration STEP_TIMEOUT = Duration.ofMinutes(2);

    /**
     * @param renewalWindowStart when the CA would have it renewed (ARI, RFC 9773), if it says
     */
    record Issued(KeyPair key, List<X509Certificate> chain, Optional<Instant> renewalWindowStart) {
    }

    private AcmeIssuer() {
    }

    static Issued obtain(AcmeConfig config, Path accountKeyFile) throws AcmeException, IOException,
            InterruptedException, GeneralSecurityException {
        Session session = config.trustedCa() == null ? new Session(config.directory())
                : new Session(java.net.URI.create(config.directory()), new TrustingAcmeProvider(config.trustedCa()));
        AccountBuilder account = new AccountBuilder().agreeToTermsOfService().useKeyPair(accountKey(accountKeyFile));
        if (config.email() != null) {
            account.addEmail(config.email());
        }
        Login login = account.createLogin(session); // the CA returns the existing account for a known key
        Order order = login.newOrder().domains(config.domainsOrEmpty()).create();
        for (Authorization authorization : order.getAuthorizations()) {
            authorize(authorization, config.challengeOrDefault());
        }
        KeyPair key = CertificateFiles.newKeyPair();
        order.execute(key);
        Status status = order.waitForCompletion(STEP_TIMEOUT);
        if (status != Status.VALID) {
            throw new AcmeException("the order ended " + status + order.getError().map(p -> ": " + p).orElse(""));
        }
        Certificate certificate = order.getCertificate();
        Optional<Instant> window = Optional.empty();
        try {
            if (certificate.hasRenewalInfo()) {
                window = Optional.of(certificate.getRenewalInfo().getSuggestedWindowStart());
            }
        } catch (RuntimeException e) { // acme4j's lazy fetch fails unchecked (AcmeLazyLoadingException)
            // ARI is advice: without it the renewal rule of renewBeforeDays applies
        }
        return new Issued(key, certificate.getCertificateChain(), window);
    }

    private static void authorize(Authorization authorization, String type) throws AcmeException,
            InterruptedException, IOException, GeneralSecurityException {
        if (authorization.getStatus() == Status.VALID) {
            return; // proved recently: the CA reuses it
        }
        String name = authorization.getIdentifier().getDomain();
        if (AcmeConfig.TLS_ALPN_01.equals(type)) {
            TlsAlpn01Challenge challenge = authorization.findChallenge(TlsAlpn01Challenge.class).orElseThrow(
                    () -> new AcmeException(name + ": the CA offers no tls-alpn-01 challenge"));
            // RSA: acme4j signs the challenge's certificate with SHA256withRSA whatever the key (3.5.1)
            KeyPair key = KeyPairUtils.createKeyPair(2048);
            AlpnChallenges.offer(name, key.getPrivate(), challenge.createCertificate(key, authorization.getIdentifier()));
            try {
                check(authorization, challenge, name);
            } finally {
                AlpnChallenges.withdraw(name);
            }
            return;
        }
        Http01Challenge challenge = authorization.findChallenge(Http01Challenge.class).orElseThrow(
                () -> new AcmeException(name + ": the CA offers no http-01 challenge"));
        AcmeChallenges.offer(challenge.getToken(), challenge.getAuthorization());
        try {
            check(authorization, challenge, name);
        } finally {
            AcmeChallenges.withdraw(challenge.getToken());
        }
    }

    /** Asks the CA to check {@code challenge}, answered meanwhile, and waits for its verdict. */
    private static void check(Authorization authorization, Challenge challenge, String name) throws AcmeException,
            InterruptedException {
        challenge.trigger();
        Status status = authorization.waitForCompletion(STEP_TIMEOUT);
        if (status != Status.VALID) {
            throw new AcmeException(name + ": the CA's " + challenge.getType() + " check ended " + status
                    + challenge.getError().map(p -> ": " + p).orElse(""));
        }
    }

    /** The account's key: read from {@code file}, or made and written there the first time. */
    private static KeyPair accountKey(Path file) throws IOException {
        if (Files.isRegularFile(file)) {
            try (Reader in = Files.newBufferedReader(file)) {
                return KeyPairUtils.readKeyPair(in);
            }
        }
        KeyPair pair = KeyPairUtils.createKeyPair(2048);
        StringWriter pem = new StringWriter();
        KeyPairUtils.writeKeyPair(pair, pem);
        CertificateFiles.writeAtomically(file, pem.toString(), true);
        return pair;
    }
}
