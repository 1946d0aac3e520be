package io.loadwise.node.glassfish;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.random.RandomGenerator;

/**
 * Chooses the {@code --portbase} of a new domain: GlassFish derives every port it listens on from it by
 * a fixed offset, so all of them must be free. Bases are picked at random below the usual ephemeral
 * range so that parallel builds and outgoing connections rarely collide; {@code create-domain
 * --checkports} re-checks at creation.
 */
final class PortBase {

    /** Offsets from {@code asadmin create-domain --portbase}: iiop(3), osgi shell, jms, admin, http(s), jmx. */
    static final int[] OFFSETS = {37, 38, 39, 48, 66, 76, 80, 81, 86};
    static final int ADMIN_OFFSET = 48;
    static final int HTTP_OFFSET = 80;

    private static final int LOWEST = 20_000;
    private static final int HIGHEST = 31_900;
    private static final int ATTEMPTS = 50;

    private PortBase() {
    }

    static int choose(RandomGenerator random) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int base = LOWEST + 100 * random.nextInt((HIGHEST - LOWEST) / 100);
            if (allFree(base)) {
                return base;
            }
        }
        throw new IllegalStateException("no free GlassFish port base between " + LOWEST + " and " + HIGHEST
                + " after " + ATTEMPTS + " random attempts");
    }

    static boolean allFree(int base) {
        for (int offset : OFFSETS) {
            if (!isFree(base + offset)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isFree(int port) {
        // GlassFish binds the wildcard address, so that is what must be free.
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
