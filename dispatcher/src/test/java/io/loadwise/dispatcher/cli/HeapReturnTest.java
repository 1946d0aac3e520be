package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HeapReturnTest {

    private static VMOption option(String value, boolean writeable, VMOption.Origin origin) {
        return new VMOption(HeapReturn.OPTION, value, writeable, origin);
    }

    @Test
    void anUntouchedOptionOnG1GetsTheInterval() {
        assertEquals(Optional.of("30000"), HeapReturn.intervalToSet(option("0", true, VMOption.Origin.DEFAULT), true));
    }

    @Test
    void anOperatorsValueIsKeptEvenZero() {
        assertEquals(Optional.empty(), HeapReturn.intervalToSet(option("0", true, VMOption.Origin.VM_CREATION), true),
                "-XX:G1PeriodicGCInterval=0 on the command line turns it off on purpose");
        assertEquals(Optional.empty(), HeapReturn.intervalToSet(option("5000", true, VMOption.Origin.VM_CREATION), true));
        assertEquals(Optional.empty(), HeapReturn.intervalToSet(option("5000", true, VMOption.Origin.ENVIRON_VAR), true),
                "JAVA_TOOL_OPTIONS");
        assertEquals(Optional.empty(), HeapReturn.intervalToSet(option("7000", true, VMOption.Origin.MANAGEMENT), true),
                "set at run time, e.g. with jcmd VM.set_flag");
    }

    @Test
    void otherCollectorsAndReadOnlyOptionsAreLeftAlone() {
        assertEquals(Optional.empty(), HeapReturn.intervalToSet(option("0", true, VMOption.Origin.DEFAULT), false));
        assertEquals(Optional.empty(), HeapReturn.intervalToSet(option("0", false, VMOption.Origin.DEFAULT), true));
    }

    @Test
    void g1IsToldByItsCollectorNames() {
        assumeTrue(ManagementFactory.getGarbageCollectorMXBeans().stream().anyMatch(c -> c.getName().contains("G1")),
                "the test JVM runs G1");
        assertTrue(HeapReturn.usesG1(ManagementFactory.getGarbageCollectorMXBeans()));
    }

    /** The wiring on this JVM: the flag really changes, and is restored for the tests that follow. */
    @Test
    void applySetsTheLiveFlag() {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        VMOption before = hotspot.getVMOption(HeapReturn.OPTION);
        assumeTrue(HeapReturn.intervalToSet(before, HeapReturn.usesG1(ManagementFactory.getGarbageCollectorMXBeans()))
                .isPresent(), "G1 with the option untouched");
        try {
            HeapReturn.apply();
            VMOption after = hotspot.getVMOption(HeapReturn.OPTION);
            assertEquals("30000", after.getValue());
            assertEquals(VMOption.Origin.MANAGEMENT, after.getOrigin());
            assertFalse(HeapReturn.intervalToSet(after, true).isPresent(), "a second apply leaves it");
        } finally {
            hotspot.setVMOption(HeapReturn.OPTION, before.getValue());
        }
    }
}
