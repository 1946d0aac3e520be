package io.loadwise.dispatcher.cli;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a dispatcher that has gone quiet give back the heap a burst made it grow, unless the operator chose
 * otherwise. G1 keeps the heap it has committed until a collection shrinks it, and an idle proxy allocates too
 * little to trigger one: after a load test, a process holding 10,000 idle connections kept 296 MB of RSS where a
 * fresh one held them in 211 MB (docs/performance.md). G1's periodic collection (JEP 346) runs a concurrent
 * cycle when no collection has run for an interval, and shrinks the heap to what {@code MaxHeapFreeRatio}
 * allows. Under load collections run all the time, so it never fires there.
 *
 * <p>{@code G1PeriodicGCInterval} is a manageable flag, so the dispatcher sets it at start-up, and only when it
 * still has its default value (0, off) and the collector is G1: {@code -XX:G1PeriodicGCInterval=N} on the
 * command line or in {@code JAVA_OPTS} wins, and other collectors are left alone.
 */
final class HeapReturn {

    static final String OPTION = "G1PeriodicGCInterval";
    /** Long enough that a proxy serving any traffic collects on its own first; short enough to matter after a burst. */
    static final long INTERVAL_MILLIS = 30_000;

    private static final Logger LOG = LoggerFactory.getLogger(HeapReturn.class);

    private HeapReturn() {
    }

    /** Sets the periodic collection on this JVM when {@link #intervalToSet} says so; logs what it did. */
    static void apply() {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (hotspot == null) {
            return; // not HotSpot: nothing to set
        }
        VMOption current;
        try {
            current = hotspot.getVMOption(OPTION);
        } catch (IllegalArgumentException e) {
            return; // a VM without the option
        }
        Optional<String> value = intervalToSet(current, usesG1(ManagementFactory.getGarbageCollectorMXBeans()));
        if (value.isEmpty()) {
            LOG.debug("heap return: {}={} ({}), left as it is", OPTION, current.getValue(), current.getOrigin());
            return;
        }
        try {
            hotspot.setVMOption(OPTION, value.get());
            LOG.info("heap: G1 collects after {} ms without a collection, so an idle dispatcher gives back the heap a burst"
                    + " grew (-XX:{}=N sets another interval, 0 turns it off)", value.get(), OPTION);
        } catch (RuntimeException e) {
            LOG.warn("heap return: could not set {}: {}", OPTION, e.getMessage());
        }
    }

    /**
     * The interval to set: {@link #INTERVAL_MILLIS} when the option is writeable, still at its default and
     * off, and the collector is G1; empty otherwise.
     */
    static Optional<String> intervalToSet(VMOption current, boolean g1) {
        boolean untouched = current.getOrigin() == VMOption.Origin.DEFAULT && "0".equals(current.getValue());
        return g1 && current.isWriteable() && untouched ? Optional.of(Long.toString(INTERVAL_MILLIS)) : Optional.empty();
    }

    /** Whether the JVM collects with G1 (its collectors are named "G1 Young Generation" and so on). */
    static boolean usesG1(List<GarbageCollectorMXBean> collectors) {
        return collectors.stream().anyMatch(c -> c.getName().startsWith("G1 "));
    }
}
