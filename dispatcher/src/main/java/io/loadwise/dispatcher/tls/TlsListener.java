package io.loadwise.dispatcher.tls;

import io.loadwise.dispatcher.config.TlsConfig;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS termination for one listener: adds the TLS handlers to each client connection, and reloads the
 * certificate and key files when they change on disk.
 *
 * <p>The files are checked every {@code reloadCheckMs} on one daemon thread shared by every listener,
 * never on an event loop. A change (their bytes differ) builds a whole new {@link ServerTls}, swapped
 * in at once; the next handshake uses it, while open connections keep the session they made. A set of
 * files that does not load (a certificate written before its key, say) is logged once and retried at the
 * next check; the old certificate stays in use meanwhile.
 */
public final class TlsListener implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TlsListener.class);
    private static final ScheduledExecutorService RELOADS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "loadwise-tls-reload");
        thread.setDaemon(true);
        return thread;
    });

    private final String name;
    private final String at;
    private final TlsConfig config;
    private final SslProvider provider;
    private final List<String> alpn;
    private final long handshakeTimeoutMs;
    private final List<Path> files;
    private volatile ServerTls current;
    /** The OCSP staples, with {@code ocspStapling} on a provider that can staple; null otherwise. */
    private final OcspStapler stapler;
    private byte[] digest;
    private byte[] failedDigest;
    private ScheduledFuture<?> reloads;
    /** Run on the reload thread after each certificate reload: other protocols' contexts (QUIC) follow. */
    private final List<Runnable> reloadHooks = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<Runnable> closeHooks = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * @param name the listener, for the log ({@code cluster web})
     * @param at the configuration path of the fields ({@code clusters[0].tls})
     * @throws TlsFileException when the files do not make a usable TLS setup
     */
    public TlsListener(String name, String at, TlsConfig config, SslProvider provider, List<String> alpn,
            long handshakeTimeoutMs) throws TlsFileException {
        this.name = name;
        this.at = at;
        this.config = config;
        this.provider = provider;
        this.alpn = List.copyOf(alpn);
        this.handshakeTimeoutMs = handshakeTimeoutMs;
        this.files = filesOf(config);
        this.digest = digest();
        this.current = ServerTls.load(at, config, provider, alpn);
        log.info("{}: TLS with {} ({}), ALPN {}", name, TlsProviders.describe(provider),
                String.join("/", config.protocolsOrDefault()), String.join(",", alpn));
        for (CertificateInfo info : current.certificates()) {
            log.info("{}: certificate {} (SANs {}), valid until {}", name, info.subject(), info.subjectAltNames(),
                    info.notAfter());
        }
        ServerTls.expiryWarnings(name, current.certificates(), Instant.now()).forEach(log::warn);
        if (config.ocspStaplingOrDefault() && !ServerTls.canStaple(provider)) {
            log.warn("{}: ocspStapling needs the OpenSSL (BoringSSL) provider, which did not load; no OCSP staples",
                    name);
        }
        this.stapler = config.ocspStaplingOrDefault() && ServerTls.canStaple(provider) ? new OcspStapler(name) : null;
        if (stapler != null) {
            stapler.track(current);
            onReload(() -> stapler.track(this.current)); // a renewed certificate's staple is fetched at once
            onClose(stapler::close);
        }
    }

    /** Starts checking the files for changes. */
    public synchronized void start() {
        if (reloads == null) {
            long period = config.reloadCheckMsOrDefault();
            reloads = RELOADS.scheduleWithFixedDelay(this::checkFiles, period, period, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public synchronized void close() {
        if (reloads != null) {
            reloads.cancel(false);
            reloads = null;
        }
        reloadHooks.clear();
        closeHooks.forEach(Runnable::run);
        closeHooks.clear();
    }

    /** Runs {@code hook} when the listener closes (what keeps its certificate current stops with it). */
    public void onClose(Runnable hook) {
        closeHooks.add(hook);
    }

    /** Runs {@code hook} after every successful reload (on the reload thread), until {@link #close()}. */
    public void onReload(Runnable hook) {
        reloadHooks.add(hook);
    }

    /** The configuration the contexts are built from. */
    public TlsConfig config() {
        return config;
    }

    /** The contexts in use now. */
    public ServerTls current() {
        return current;
    }

    /** Adds the handlers that terminate TLS at the head of a new client connection's pipeline. */
    public void install(ChannelPipeline pipeline) {
        pipeline.addLast("tls-sniff", new PlainTextRefusal(name));
        pipeline.addLast("tls-sni", new ServerNameSelector(this::current, stapler == null ? null : stapler::staple,
                handshakeTimeoutMs));
        pipeline.addLast("tls-events", new HandshakeEvents(name));
    }

    /** Writes certificate files (an ACME renewal, say); {@link TlsListener#replaceFiles} runs it. */
    @FunctionalInterface
    public interface FileWrite {
        void run() throws IOException;
    }

    /**
     * Runs {@code write} while no check of the files runs, so that none sees a new key beside the old certificate,
     * then loads what it wrote at once instead of at the next check.
     */
    public synchronized void replaceFiles(FileWrite write) throws IOException {
        write.run();
        checkFiles();
    }

    /** Checks the files once; public so tests need not wait for the timer. */
    public synchronized void checkFiles() {
        byte[] now;
        try {
            now = digest();
        } catch (RuntimeException e) {
            log.warn("{}: cannot check the certificate files: {}", name, e.toString());
            return;
        }
        if (Arrays.equals(now, digest)) {
            return;
        }
        try {
            ServerTls reloaded = ServerTls.load(at, config, provider, alpn);
            current = reloaded;
            digest = now;
            failedDigest = null;
            for (CertificateInfo info : reloaded.certificates()) {
                log.info("{}: certificate reloaded: {} (SANs {}), valid until {}", name, info.subject(),
                        info.subjectAltNames(), info.notAfter());
            }
            ServerTls.expiryWarnings(name, reloaded.certificates(), Instant.now()).forEach(log::warn);
            for (Runnable hook : reloadHooks) {
                hook.run();
            }
        } catch (TlsFileException e) {
            if (!Arrays.equals(now, failedDigest)) {
                failedDigest = now;
                log.warn("{}: the changed certificate files do not load, still serving the previous ones: {}",
                        name, e.getMessage());
            }
        }
    }

    /** One digest over every file's bytes; a missing file counts as empty. */
    private byte[] digest() {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        for (Path file : files) {
            try {
                sha.update(Files.readAllBytes(file));
            } catch (IOException e) {
                sha.update((byte) 0);
            }
            sha.update((byte) '\n');
        }
        return sha.digest();
    }

    private static List<Path> filesOf(TlsConfig config) {
        Set<String> names = new LinkedHashSet<>();
        addIfSet(names, config.certificate());
        addIfSet(names, config.key());
        addIfSet(names, config.clientCa());
        for (TlsConfig.SniCertificate entry : config.certificatesOrEmpty()) {
            addIfSet(names, entry.certificate());
            addIfSet(names, entry.key());
        }
        List<Path> paths = new ArrayList<>();
        for (String file : names) {
            paths.add(Path.of(file));
        }
        return paths;
    }

    private static void addIfSet(Set<String> names, String file) {
        if (file != null) {
            names.add(file);
        }
    }
}
