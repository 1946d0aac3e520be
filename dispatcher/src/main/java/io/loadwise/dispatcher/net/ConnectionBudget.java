package io.loadwise.dispatcher.net;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The default of the dispatcher-wide {@code maxClientConnections}, derived from the process's
 * file-descriptor limit ({@code ulimit -n}): each client connection may pair with a node connection, so
 * half of what is left after a reserve for log files, the admin console, metric stores and agent polls.
 * Without the limit, idle connections used every descriptor and the other clusters became unreachable.
 *
 * @param limit the client connections the dispatcher holds at most
 * @param descriptorLimit the process's file-descriptor limit, or -1 where the platform does not tell
 * @param configured whether {@code limit} is the configured {@code maxClientConnections}
 */
public record ConnectionBudget(int limit, long descriptorLimit, boolean configured) {

    /** Descriptors kept for everything that is not a proxied connection. */
    static final int RESERVED_DESCRIPTORS = 256;
    static final int MIN_DEFAULT = 64;
    /** The default where the descriptor limit cannot be read (not a Unix JVM). */
    static final int NON_UNIX_DEFAULT = 10_000;
    static final int MAX_DEFAULT = 10_000_000;

    /**
     * @param configured {@code maxClientConnections} of the configuration, or {@code null}
     */
    public static ConnectionBudget resolve(Integer configured) {
        return resolve(configured, descriptorLimitOfThisProcess());
    }

    static ConnectionBudget resolve(Integer configured, long descriptorLimit) {
        if (configured != null) {
            return new ConnectionBudget(configured, descriptorLimit, true);
        }
        return new ConnectionBudget(defaultFor(descriptorLimit), descriptorLimit, false);
    }

    /** The default for a process allowed {@code descriptorLimit} descriptors (-1: unknown). */
    static int defaultFor(long descriptorLimit) {
        if (descriptorLimit < 0) {
            return NON_UNIX_DEFAULT;
        }
        long half = (descriptorLimit - RESERVED_DESCRIPTORS) / 2;
        return (int) Math.max(MIN_DEFAULT, Math.min(MAX_DEFAULT, half));
    }

    /** {@code ulimit -n} of this JVM, or -1 when it is not a Unix JVM. */
    static long descriptorLimitOfThisProcess() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : -1;
    }

    /**
     * Whether the limit can use more descriptors than the process has: a configured limit above the
     * default makes {@code Too many open files} possible again.
     */
    public boolean exceedsDescriptors() {
        return configured && descriptorLimit >= 0 && limit > defaultFor(descriptorLimit);
    }

    /** One line for the start-up log. */
    public String describe() {
        if (configured) {
            return limit + " (maxClientConnections"
                    + (descriptorLimit < 0 ? ")" : "; file-descriptor limit " + descriptorLimit + ")");
        }
        if (descriptorLimit < 0) {
            return limit + " (default; the file-descriptor limit is unknown on this platform)";
        }
        return limit + " (default: half of the file-descriptor limit " + descriptorLimit + " less "
                + RESERVED_DESCRIPTORS + " reserved; set maxClientConnections to change it)";
    }
}
