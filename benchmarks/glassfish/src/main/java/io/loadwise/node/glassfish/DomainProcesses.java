package io.loadwise.node.glassfish;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds and ends the server processes of one domain. A GlassFish server names its domain directory in
 * its command line ({@code -Dcom.sun.aas.instanceRoot=<dir>}), which identifies it even when asadmin has
 * lost track of it (a failed start, a killed build).
 */
final class DomainProcesses {

    private static final Logger LOG = LoggerFactory.getLogger(DomainProcesses.class);

    private DomainProcesses() {
    }

    /** Live processes whose command line names exactly this domain directory. */
    static List<ProcessHandle> of(Path domainDir) {
        String marker = "-Dcom.sun.aas.instanceRoot=" + domainDir.toAbsolutePath().normalize();
        return ProcessHandle.allProcesses()
                .filter(p -> p.pid() != ProcessHandle.current().pid())
                .filter(p -> p.info().commandLine().map(line -> namesDomain(line, marker)).orElse(false))
                .toList();
    }

    /** The marker must end at a word boundary, so that domain "a" does not match domain "ab". */
    private static boolean namesDomain(String commandLine, String marker) {
        int at = commandLine.indexOf(marker);
        while (at >= 0) {
            int end = at + marker.length();
            if (end == commandLine.length() || Character.isWhitespace(commandLine.charAt(end))) {
                return true;
            }
            at = commandLine.indexOf(marker, end);
        }
        return false;
    }

    /** Kills every process of the domain and waits for each to end; returns how many there were. */
    static int kill(Path domainDir, Duration wait) {
        List<ProcessHandle> processes = of(domainDir);
        for (ProcessHandle process : processes) {
            LOG.warn("killing leftover GlassFish process {} of {}", process.pid(), domainDir);
            process.destroyForcibly();
        }
        for (ProcessHandle process : processes) {
            try {
                process.onExit().get(wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                LOG.error("GlassFish process {} of {} still runs {} s after SIGKILL", process.pid(), domainDir,
                        wait.toSeconds());
            } catch (ExecutionException e) {
                LOG.error("waiting for GlassFish process {} failed", process.pid(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return processes.size();
            }
        }
        return processes.size();
    }
}
