package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.console.testing.ApiClient;
import io.loadwise.dispatcher.config.AdminConfig;
import io.loadwise.dispatcher.control.ControlPlane;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class ConsoleControlPlaneTest extends ApiTestBase {

    @Test
    void dispatcherFindsTheConsoleThroughServiceLoader() {
        List<ControlPlane> planes = ServiceLoader.load(ControlPlane.class).stream().map(ServiceLoader.Provider::get)
                .toList();
        assertEquals(1, planes.size());
        assertTrue(planes.get(0) instanceof ConsoleControlPlane);
    }

    @Test
    void refusesToRunWithoutToken() {
        ConsoleControlPlane other = new ConsoleControlPlane();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> other.start(control, new AdminConfig("127.0.0.1:0", null, null), " "));
        assertTrue(e.getMessage().contains("LOADWISE_ADMIN_TOKEN"), e.getMessage());
    }

    @Test
    void rejectsMalformedListenAddress() {
        ConsoleControlPlane other = new ConsoleControlPlane();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> other.start(control, new AdminConfig("localhost", null, null), TOKEN));
        assertTrue(e.getMessage().startsWith("admin.listen:"), e.getMessage());
    }

    @Test
    void portInUseIsAnErrorNamingTheAddress() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ConsoleControlPlane other = new ConsoleControlPlane();
            String listen = "127.0.0.1:" + taken.getLocalPort();
            IOException e = assertThrows(IOException.class,
                    () -> other.start(control, new AdminConfig(listen, null, null), TOKEN));
            assertTrue(e.getMessage().contains(listen), e.getMessage());
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
            other.close();
        }
    }

    @Test
    void closeReleasesThePort() throws Exception {
        ConsoleControlPlane other = new ConsoleControlPlane();
        other.start(control, new AdminConfig("127.0.0.1:0", null, null), TOKEN);
        int port = other.port();
        assertEquals(200, new ApiClient(port, TOKEN).get("/api/policies").status());
        other.close();
        try (ServerSocket rebound = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertEquals(port, rebound.getLocalPort());
        }
    }
}
