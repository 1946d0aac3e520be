package io.loadwise.node.glassfish;

import io.loadwise.node.provision.ProvisioningException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One GlassFish 7 domain driven through asadmin: created fresh in its own directory with a free port
 * base, given a heap and server-wide jars before it starts, then started, configured live, given
 * applications, and stopped. {@link #stop()} leaves no server process behind, also after failures.
 *
 * <p>Order of use: {@link #createDomain}, optionally {@link #setMaxHeap} and {@link #addLibraries},
 * {@link #start}, {@link #configure} and {@link #deploy} as needed, {@link #stop}.
 */
public final class GlassFishServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GlassFishServer.class);
    private static final Duration CREATE_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration CONFIGURE_TIMEOUT = Duration.ofMinutes(4);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration KILL_WAIT = Duration.ofSeconds(15);
    private static final int CREATE_ATTEMPTS = 3;

    private final String name;
    private final Path domainsDir;
    private final Path domainDir;
    private final int portBase;
    private final Asadmin asadmin;
    private final Thread killOnExit;
    private boolean started;
    private boolean stopped;

    private GlassFishServer(String name, Path domainsDir, int portBase, Asadmin asadmin) {
        this.name = name;
        this.domainsDir = domainsDir;
        this.domainDir = domainsDir.resolve(name);
        this.portBase = portBase;
        this.asadmin = asadmin;
        this.killOnExit = new Thread(() -> DomainProcesses.kill(domainDir, KILL_WAIT), "glassfish-kill-" + name);
    }

    /**
     * Creates the domain {@code name} in {@code domainsDir} (deleting an earlier domain of that name and
     * killing its processes first) with a random free port base and no admin password.
     */
    public static GlassFishServer createDomain(GlassFishInstallation installation, Path domainsDir, String name)
            throws ProvisioningException {
        Path dir;
        try {
            Files.createDirectories(domainsDir);
            dir = domainsDir.toRealPath();
        } catch (IOException e) {
            throw new ProvisioningException("cannot create the domains directory " + domainsDir + ": " + e, e);
        }
        removeStaleDomain(dir.resolve(name));
        Asadmin asadmin = new Asadmin(installation, dir.resolve(name + "-asadmin"));
        AsadminException lastFailure = null;
        for (int attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
            int base = PortBase.choose(RandomGenerator.getDefault());
            try {
                asadmin.run(CREATE_TIMEOUT, List.of("create-domain", "--domaindir", dir.toString(),
                        "--portbase", Integer.toString(base), "--nopassword=true", "--checkports=true", name));
                LOG.info("created GlassFish domain {} in {} with port base {}", name, dir, base);
                return new GlassFishServer(name, dir, base, asadmin);
            } catch (AsadminException e) {
                // Another process may have taken a port between our check and asadmin's.
                lastFailure = e;
                LOG.warn("create-domain {} with port base {} failed (attempt {})", name, base, attempt);
                deleteTree(dir.resolve(name));
            }
        }
        throw lastFailure;
    }

    public String name() {
        return name;
    }

    public Path domainDir() {
        return domainDir;
    }

    public int adminPort() {
        return portBase + PortBase.ADMIN_OFFSET;
    }

    /** The HTTP listener's port as created; {@link DomainSettings#httpListener} may move it. */
    public int defaultHttpPort() {
        return portBase + PortBase.HTTP_OFFSET;
    }

    /** Sets {@code -Xmx}; only before {@link #start}, so that no restart is needed. */
    public void setMaxHeap(int heapMb) throws ProvisioningException {
        requireNotStarted("set the heap");
        DomainXml.setMaxHeap(domainDir.resolve("config/domain.xml"), heapMb);
    }

    /** Adds JVM options (e.g. {@code -Dname=value}) to the server; only before {@link #start}. */
    public void addJvmOptions(List<String> options) throws ProvisioningException {
        requireNotStarted("add JVM options");
        DomainXml.addJvmOptions(domainDir.resolve("config/domain.xml"), options);
    }

    /** Copies jars to the domain's {@code lib} directory (the common class loader); only before {@link #start}. */
    public void addLibraries(List<Path> jars) throws ProvisioningException {
        requireNotStarted("add libraries");
        Path lib = domainDir.resolve("lib");
        for (Path jar : jars) {
            try {
                Files.copy(jar, lib.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new ProvisioningException("cannot copy " + jar + " to " + lib + ": " + e, e);
            }
        }
    }

    /** {@code asadmin start-domain}; returns when the server accepts admin commands. */
    public void start() throws ProvisioningException {
        requireNotStarted("start");
        started = true;
        Runtime.getRuntime().addShutdownHook(killOnExit);
        try {
            asadmin.run(START_TIMEOUT, List.of("start-domain", "--domaindir", domainsDir.toString(), name));
        } catch (AsadminException e) {
            throw new AsadminException(e.getMessage() + "\n--- server.log (tail) ---\n" + serverLogTail());
        }
        LOG.info("started GlassFish domain {} (admin port {})", name, adminPort());
    }

    /**
     * Kills the domain's processes (SIGKILL, as a crash or an OOM killer would) and returns once they are gone;
     * the domain stays started as far as {@link #stop} is concerned. Returns how many processes there were.
     */
    public int kill() {
        requireRunning("kill");
        return DomainProcesses.kill(domainDir, KILL_WAIT);
    }

    /**
     * Starts the domain again after {@link #kill}, as an operator restarts a crashed server:
     * {@code asadmin start-domain}; returns when the server accepts admin commands (its applications are
     * deployed from the domain's configuration meanwhile).
     */
    public void startAgain() throws ProvisioningException {
        requireRunning("start again");
        try {
            asadmin.run(START_TIMEOUT, List.of("start-domain", "--domaindir", domainsDir.toString(), name));
        } catch (AsadminException e) {
            throw new AsadminException(e.getMessage() + "\n--- server.log (tail) ---\n" + serverLogTail());
        }
        LOG.info("started GlassFish domain {} again (admin port {})", name, adminPort());
    }

    /**
     * Applies the settings in one {@code asadmin multimode} session, deployments included; fails if any
     * command fails.
     */
    public void configure(DomainSettings settings) throws ProvisioningException {
        requireRunning("configure");
        Path script = asadminDir().resolve("configure-" + System.nanoTime() + ".txt");
        try {
            Files.createDirectories(script.getParent());
            Files.writeString(script, settings.multimodeScript(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ProvisioningException("cannot write the asadmin script " + script + ": " + e, e);
        }
        remote(CONFIGURE_TIMEOUT, "multimode", "--file", script.toString());
        LOG.info("applied {} asadmin command(s) to {}", settings.commands().size(), name);
    }

    /** Deploys a WAR at a context root (e.g. "/trade"); returns when the application is started. */
    public void deploy(Path war, String contextRoot) throws ProvisioningException {
        configure(new DomainSettings().deploy(war, contextRoot));
        LOG.info("deployed {} at {} on {}", war.getFileName(), contextRoot, name);
    }

    /** Runs any other asadmin subcommand against this running server and returns its output. */
    public String asadmin(Duration timeout, String... subcommand) throws ProvisioningException {
        requireRunning("run asadmin");
        return remote(timeout, subcommand);
    }

    /** Live processes of this domain (the server JVM). */
    public List<ProcessHandle> processes() {
        return DomainProcesses.of(domainDir);
    }

    /**
     * {@code asadmin stop-domain}, then kills whatever process of the domain is left. Never throws;
     * idempotent.
     */
    public void stop() {
        if (!started || stopped) {
            return;
        }
        stopped = true;
        try {
            asadmin.run(STOP_TIMEOUT, List.of("stop-domain", "--domaindir", domainsDir.toString(), name));
        } catch (AsadminException e) {
            LOG.warn("stop-domain {} failed; killing its processes\n{}", name, e.getMessage());
        }
        int killed = DomainProcesses.kill(domainDir, KILL_WAIT);
        if (killed > 0) {
            LOG.warn("killed {} GlassFish process(es) that outlived stop-domain {}", killed, name);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down; the hook runs anyway and finds nothing to kill.
        }
    }

    @Override
    public void close() {
        stop();
    }

    /** The last lines of the server's own log: why a start or deployment failed. */
    public String serverLogTail() {
        Path log = domainDir.resolve("logs/server.log");
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no readable " + log + ": " + e + ")";
        }
    }

    private String remote(Duration timeout, String... subcommand) throws AsadminException {
        List<String> arguments = new ArrayList<>(List.of("--host", "localhost", "--port", Integer.toString(adminPort())));
        arguments.addAll(List.of(subcommand));
        return asadmin.run(timeout, arguments);
    }

    private Path asadminDir() {
        return domainsDir.resolve(name + "-asadmin");
    }

    private void requireNotStarted(String action) {
        if (started) {
            throw new IllegalStateException("cannot " + action + ": domain " + name + " was already started");
        }
    }

    private void requireRunning(String action) {
        if (!started || stopped) {
            throw new IllegalStateException("cannot " + action + ": domain " + name + " is not running");
        }
    }

    private static void removeStaleDomain(Path dir) throws ProvisioningException {
        int killed = DomainProcesses.kill(dir, KILL_WAIT);
        if (killed > 0) {
            LOG.warn("killed {} process(es) of a stale domain in {}", killed, dir);
        }
        deleteTree(dir);
    }

    private static void deleteTree(Path dir) throws ProvisioningException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new ProvisioningException("cannot delete the old domain directory " + dir + ": " + e, e);
        }
    }
}
