package io.loadwise.console.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

/**
 * A servlet-container stand-in in a JVM of its own, with sessions in memory (no replication): {@code /login}
 * starts one ({@code JSESSIONID=<id>.<route>}), {@code /cart} answers 200 only within a session it holds
 * (401 "logged out" otherwise, as a restarted container would), {@code /logout} ends it, and
 * {@code /loadwise-agent/metrics} reports {@code AMX_SESSIONS_ACT} as the node agent does. Prints
 * {@code listening <port>} once it serves, and writes its pid to {@code --pid-file}.
 *
 * <p>{@code java -cp ... SessionNode --port P --route R --pid-file F}
 */
public final class SessionNode {

    private SessionNode() {
    }

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(arg(args, "--port"));
        String route = arg(args, "--route");
        Path pidFile = Path.of(arg(args, "--pid-file"));
        Map<String, Boolean> sessions = new ConcurrentHashMap<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/login", ex -> {
            String id = UUID.randomUUID().toString().replace("-", "");
            sessions.put(id, Boolean.TRUE);
            ex.getResponseHeaders().add("Set-Cookie", "JSESSIONID=" + id + "." + route + "; Path=/; HttpOnly");
            answer(ex, 200, "welcome to " + route);
        });
        server.createContext("/cart", ex -> {
            String id = session(ex, route);
            if (id == null || !sessions.containsKey(id)) {
                answer(ex, 401, "logged out");
            } else {
                answer(ex, 200, "cart on " + route);
            }
        });
        server.createContext("/logout", ex -> {
            String id = session(ex, route);
            answer(ex, id != null && sessions.remove(id) != null ? 200 : 401, "bye");
        });
        server.createContext("/loadwise-agent/metrics", ex -> answer(ex, 200, "{\"timestamp\":"
                + System.currentTimeMillis() + ",\"metrics\":{\"AMX_SESSIONS_ACT\":" + sessions.size() + "}}"));
        server.start();
        Path tmp = pidFile.resolveSibling(pidFile.getFileName() + ".tmp");
        Files.writeString(tmp, Long.toString(ProcessHandle.current().pid()));
        Files.move(tmp, pidFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("listening " + server.getAddress().getPort());
        System.out.flush();
    }

    /** The session id of a {@code JSESSIONID=<id>.<route>} cookie for this route, or {@code null}. */
    private static String session(HttpExchange ex, String route) {
        String cookie = ex.getRequestHeaders().getFirst("Cookie");
        if (cookie == null) {
            return null;
        }
        for (String part : cookie.split(";")) {
            String p = part.strip();
            if (p.startsWith("JSESSIONID=") && p.endsWith("." + route)) {
                return p.substring("JSESSIONID=".length(), p.length() - route.length() - 1);
            }
        }
        return null;
    }

    private static void answer(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
        ex.close();
    }

    private static String arg(String[] args, String name) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        throw new IllegalArgumentException("missing " + name);
    }
}
