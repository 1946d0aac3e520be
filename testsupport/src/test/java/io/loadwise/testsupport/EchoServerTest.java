package io.loadwise.testsupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** The echo server the dispatcher's and the console's tests proxy to: what they rely on. */
class EchoServerTest {

    @Test
    void echoesEveryByteAndCountsConnectionsAcceptedAndEnded() throws Exception {
        try (EchoServer server = new EchoServer()) {
            assertTrue(server.address().startsWith("127.0.0.1:"), server.address());
            int port = Integer.parseInt(server.address().substring("127.0.0.1:".length()));
            byte[] sent = "ping\r\n".getBytes(StandardCharsets.US_ASCII);
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket.setSoTimeout(10_000);
                OutputStream out = socket.getOutputStream();
                out.write(sent);
                out.flush();
                socket.shutdownOutput();
                assertArrayEquals(sent, socket.getInputStream().readAllBytes(), "echoed, then closed at end of input");
            }
            assertEquals(1, server.accepted());
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (server.ended() < 1 && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(10_000_000L);
            }
            assertEquals(1, server.ended());
        }
    }

    @Test
    void refusesConnectionsOnceClosed() throws Exception {
        EchoServer server = new EchoServer();
        int port = Integer.parseInt(server.address().substring("127.0.0.1:".length()));
        server.close();
        // Usually refused; on a busy machine another process may already listen on the freed port, so what
        // is asserted is that this server accepts nothing once closed.
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(200);
        } catch (ConnectException expected) {
            // refused: the usual case
        }
        assertEquals(0, server.accepted());
    }
}
