package io.loadwise.dispatcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Which transport a setting resolves to. The property tests set {@value TransportKind#DEFAULT_PROPERTY} and put
 * back what was there: a run of the whole suite with it (on io_uring, say) must not lose it.
 */
class TransportKindTest {

    private static <T> T withProperty(String value, Supplier<T> action) {
        String before = System.getProperty(TransportKind.DEFAULT_PROPERTY);
        System.setProperty(TransportKind.DEFAULT_PROPERTY, value);
        try {
            return action.get();
        } finally {
            if (before == null) {
                System.clearProperty(TransportKind.DEFAULT_PROPERTY);
            } else {
                System.setProperty(TransportKind.DEFAULT_PROPERTY, before);
            }
        }
    }

    @Test
    void theIdsAreTheSettingsValues() {
        assertEquals(List.of("auto", "io_uring", "epoll", "nio"), TransportKind.ids());
        assertEquals(TransportKind.IO_URING, TransportKind.byId("io_uring"));
        assertNull(TransportKind.byId("IO_URING"), "the setting is lower case, like the other enumerations");
        assertNull(TransportKind.byId("uring"));
    }

    @Test
    void autoIsEpollWhenAvailableElseNio() {
        assumeTrue(System.getProperty(TransportKind.DEFAULT_PROPERTY) == null, "this run sets auto's default");
        assertEquals(Epoll.isAvailable() ? TransportKind.EPOLL : TransportKind.NIO, TransportKind.AUTO.resolve());
    }

    @Test
    void nioAlwaysRuns() {
        assertEquals(TransportKind.NIO, TransportKind.NIO.resolve());
    }

    @Test
    void thePropertyNamesWhatAutoResolvesTo() {
        assertEquals(TransportKind.NIO, withProperty("nio", TransportKind.AUTO::resolve));
    }

    @Test
    void thePropertyCanAskForIoUring() {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable here: " + IoUring.unavailabilityCause());
        assertEquals(TransportKind.IO_URING, withProperty("io_uring", TransportKind.AUTO::resolve));
    }

    @Test
    void aTransportAskedForByNameIgnoresTheProperty() {
        assertEquals(TransportKind.NIO, withProperty("epoll", TransportKind.NIO::resolve));
    }

    @Test
    void anUnknownPropertyValueIsAnErrorNamingIt() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> withProperty("uring", TransportKind.AUTO::resolve));
        assertEquals("-Dloadwise.transport=uring: unknown transport, expected one of auto, io_uring, epoll, nio",
                e.getMessage());
    }

    @Test
    void ioUringThatCannotRunFailsWithNettysReason() {
        assumeTrue(!IoUring.isAvailable(), "io_uring runs here; UnavailableTransportProcessTest covers the failure");
        IllegalStateException e = assertThrows(IllegalStateException.class, TransportKind.IO_URING::resolve);
        assertEquals("transport io_uring is not available on this machine: " + IoUring.unavailabilityCause(),
                e.getMessage());
    }
}
