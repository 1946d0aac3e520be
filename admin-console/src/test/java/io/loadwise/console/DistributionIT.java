package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainDatagramPacket;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped archive ({@code ./loadwise dist}, {@code loadwise-<version>.tar.gz}) as an operator uses it:
 * unpacked with tar, {@code bin/loadwise} run from another directory and through a symbolic link, on every
 * JDK 17+ of this machine (Temurin 25 included where it is installed): it prints its version, validates the
 * example configuration (and refuses it without an admin token), and serves a request while systemd's
 * readiness protocol sees {@code READY=1} and {@code STOPPING=1} on a socket the test owns. The unit file
 * passes {@code systemd-analyze verify} where systemd is installed.
 */
class DistributionIT {

    private static final String TOKEN = "dist-test-token-0123456789";

    @TempDir
    static Path work;
    private static Path home;

    @BeforeAll
    static void unpack() throws Exception {
        Path archive = Path.of(System.getProperty("loadwise.dist.archive", "target/none.tar.gz"));
        assertTrue(Files.isRegularFile(archive), "the build made " + archive);
        Path into = Files.createDirectories(work.resolve("opt"));
        assertEquals(0, run(into, Map.of(), "tar", "-xzf", archive.toString()).exit, "tar unpacks it");
        home = into.resolve("loadwise-" + System.getProperty("loadwise.version"));
        assertTrue(Files.isDirectory(home), "one top directory named after the version: " + list(into));
    }

    @Test
    void theArchiveHoldsTheLauncherTheJarTheExampleAndTheUnit() throws IOException {
        for (String file : List.of("bin/loadwise", "lib/loadwise.jar", "conf/loadwise.example.json",
                "systemd/loadwise.service", "LICENSE", "README.md")) {
            assertTrue(Files.isRegularFile(home.resolve(file)), file + " in " + list(home));
        }
        assertTrue(Files.getPosixFilePermissions(home.resolve("bin/loadwise")).contains(PosixFilePermission.OWNER_EXECUTE),
                "bin/loadwise is executable");
        assertTrue(Files.readString(home.resolve("systemd/loadwise.service")).contains("Type=notify"));
    }

    /** HTTP/3 (docs/http3.md) needs quiche's native library, which must travel in the jar (linux-x86_64). */
    @Test
    void theJarCarriesTheQuicNativeLibrary() throws IOException {
        try (java.util.zip.ZipFile jar = new java.util.zip.ZipFile(home.resolve("lib/loadwise.jar").toFile())) {
            assertTrue(jar.getEntry("META-INF/native/libnetty_quiche42_linux_x86_64.so") != null,
                    "quiche for linux-x86_64 in lib/loadwise.jar");
            assertTrue(jar.getEntry("io/netty/handler/codec/http3/Http3.class") != null, "Netty's HTTP/3 codec");
            assertTrue(jar.stream().filter(e -> e.getName().contains("quiche")).allMatch(e -> !e.getName()
                    .startsWith("META-INF/native/") || e.getName().endsWith("linux_x86_64.so")),
                    "no other platform's quiche (25 MB)");
        }
    }

    @Test
    void versionAndValidateRunOnEveryJdkFromAnyDirectory() throws Exception {
        Path elsewhere = Files.createDirectories(work.resolve("elsewhere"));
        Path example = home.resolve("conf/loadwise.example.json");
        for (Path java : jdks()) {
            Map<String, String> env = Map.of("JAVA", java.toString());
            Result version = run(elsewhere, env, home.resolve("bin/loadwise").toString(), "--version");
            assertEquals(0, version.exit, java + ": " + version.output);
            assertTrue(version.output.contains(System.getProperty("loadwise.version")), java + ": " + version.output);

            Result refused = run(elsewhere, env, home.resolve("bin/loadwise").toString(), "validate", "--config",
                    example.toString());
            assertEquals(1, refused.exit, "no admin token, no start: " + refused.output);
            assertTrue(refused.output.contains("token"), refused.output);

            Map<String, String> withToken = new LinkedHashMap<>(env);
            withToken.put("LOADWISE_ADMIN_TOKEN", TOKEN);
            Result valid = run(elsewhere, withToken, home.resolve("bin/loadwise").toString(), "validate",
                    "--config", example.toString());
            assertEquals(0, valid.exit, java + ": " + valid.output);
            assertTrue(valid.output.contains("config OK: 1 clusters"), valid.output);
        }
    }

    @Test
    void theNewestJdkOfThisMachineIsAmongThoseTried() throws IOException {
        Path temurin25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
        assumeTrue(Files.isExecutable(temurin25), "no Temurin 25 here");
        assertTrue(jdks().stream().anyMatch(j -> {
            try {
                return j.toRealPath().equals(temurin25.toRealPath());
            } catch (IOException e) {
                return false;
            }
        }), "Temurin 25 is run: " + jdks());
        assertTrue(jdks().size() >= 2, "17 and 25: " + jdks());
    }

    @Test
    void aTooOldJavaIsRefusedWithAClearMessage() throws Exception {
        Path fake = work.resolve("old-java");
        Files.writeString(fake, "#!/bin/sh\necho '    java.specification.version = 11' >&2\n");
        fake.toFile().setExecutable(true);
        Result old = run(work, Map.of("JAVA", fake.toString()), home.resolve("bin/loadwise").toString(), "--version");
        assertEquals(1, old.exit);
        assertTrue(old.output.contains("needs 17 or newer"), old.output);
    }

    @Test
    void runsThroughASymlinkServesAndTellsSystemdOnEveryJdk() throws Exception {
        assumeTrue(Epoll.isAvailable(), "the readiness protocol needs Unix datagram sockets (Linux)");
        Path bin = Files.createDirectories(work.resolve("usr-local-bin"));
        Path link = bin.resolve("loadwise");
        if (!Files.exists(link)) {
            Files.createSymbolicLink(link, home.resolve("bin/loadwise"));
        }
        HttpServer node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/", exchange -> {
            byte[] body = "from the node".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().contains("loadwise-agent") ? 404 : 200,
                    body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        node.start();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        try {
            for (Path java : jdks()) {
                servesAndNotifies(java, link, node.getAddress().getPort(), group);
            }
        } finally {
            node.stop(0);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    private void servesAndNotifies(Path java, Path launcher, int nodePort, EventLoopGroup group) throws Exception {
        String name = java.getParent().getParent().getFileName().toString();
        Path dir = Files.createDirectories(work.resolve("run-" + name));
        int port = freePort();
        String config = Files.readString(home.resolve("conf/loadwise.example.json"))
                .replace("127.0.0.1:8111", "127.0.0.1:0")
                .replace("/var/lib/loadwise/data", dir.resolve("data").toString())
                .replace("0.0.0.0:8080", "127.0.0.1:" + port)
                .replace("10.0.0.11:8080", "127.0.0.1:" + nodePort)
                .replace("10.0.0.12:8080", "127.0.0.1:" + nodePort);
        Path file = dir.resolve("loadwise.json");
        Files.writeString(file, config);

        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        Path socketPath = dir.resolve("notify.sock");
        Channel socket = new Bootstrap().group(group).channel(EpollDomainDatagramChannel.class)
                .handler(new SimpleChannelInboundHandler<DomainDatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DomainDatagramPacket packet) {
                        received.add(packet.content().toString(StandardCharsets.UTF_8));
                    }
                }).bind(new DomainSocketAddress(socketPath.toString())).syncUninterruptibly().channel();
        ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "run", "--config", file.toString())
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("out.log").toFile());
        builder.environment().putAll(Map.of("JAVA", java.toString(), "JAVA_OPTS", "-Xmx128m",
                "LOADWISE_ADMIN_TOKEN", TOKEN, "NOTIFY_SOCKET", socketPath.toString()));
        Process process = builder.start();
        try {
            String ready = received.poll(90, TimeUnit.SECONDS);
            assertNotNull(ready, name + ": no READY=1; output:\n" + Files.readString(dir.resolve("out.log")));
            assertTrue(ready.startsWith("READY=1\n"), ready);
            assertTrue(ready.contains("MAINPID=" + process.pid()), "bin/loadwise execs the JVM: " + ready);

            HttpResponse<String> answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).build()
                    .send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), name);
            assertEquals("from the node", answer.body());

            assertTrue(process.toHandle().destroy(), "SIGTERM");
            String stopping = received.poll(30, TimeUnit.SECONDS);
            assertNotNull(stopping, name + ": no STOPPING=1");
            assertTrue(stopping.startsWith("STOPPING=1"), stopping);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), name + ": exits");
            assertEquals(0, process.exitValue(), name + ": " + Files.readString(dir.resolve("out.log")));
        } finally {
            process.destroyForcibly();
            socket.close().syncUninterruptibly();
        }
    }

    @Test
    void theUnitPassesSystemdAnalyzeVerify() throws Exception {
        Path analyze = Stream.of("/usr/bin/systemd-analyze", "/bin/systemd-analyze").map(Path::of)
                .filter(Files::isExecutable).findFirst().orElse(null);
        assumeTrue(analyze != null, "systemd-analyze is not installed here");
        Path dir = Files.createDirectories(work.resolve("unit"));
        // the unit as installed, with ExecStart where this test unpacked the archive
        Path unit = dir.resolve("loadwise.service");
        Files.writeString(unit, Files.readString(home.resolve("systemd/loadwise.service"))
                .replace("/opt/loadwise/bin/loadwise", home.resolve("bin/loadwise").toString()));
        Result verified = run(dir, Map.of(), analyze.toString(), "verify", unit.toString());
        assertEquals(0, verified.exit, verified.output);
        assertFalse(verified.output.contains("loadwise.service:"), "no line about the unit: " + verified.output);

        Files.writeString(unit, Files.readString(unit).replace("Type=notify", "Type=notifyy"));
        Result broken = run(dir, Map.of(), analyze.toString(), "verify", unit.toString());
        assertTrue(broken.output.contains("Failed to parse service type"), "the check can fail: " + broken.output);
    }

    /** Every JDK 17+ under /usr/lib/jvm (one per real directory) and the one running this test. */
    static List<Path> jdks() throws IOException {
        Map<Path, Path> byRealPath = new LinkedHashMap<>();
        Path current = Path.of(System.getProperty("java.home"), "bin", "java");
        byRealPath.put(current.toRealPath(), current);
        Path root = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(root)) {
            try (Stream<Path> dirs = Files.list(root)) {
                for (Path dir : dirs.sorted().toList()) {
                    Path java = dir.resolve("bin/java");
                    if (Files.isExecutable(java) && major(dir) >= 17) {
                        byRealPath.putIfAbsent(java.toRealPath(), java);
                    }
                }
            }
        }
        return new ArrayList<>(byRealPath.values());
    }

    /** JAVA_VERSION's feature number from a JDK's {@code release} file; 0 when it has none. */
    private static int major(Path jdk) throws IOException {
        Path release = jdk.resolve("release");
        if (!Files.isRegularFile(release)) {
            return 0;
        }
        for (String line : Files.readAllLines(release)) {
            if (line.startsWith("JAVA_VERSION=")) {
                String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                String first = v.startsWith("1.") ? "1" : v.split("[.\\-+]")[0];
                return first.chars().allMatch(Character::isDigit) ? Integer.parseInt(first) : 0;
            }
        }
        return 0;
    }

    private record Result(int exit, String output) {
    }

    private static Result run(Path dir, Map<String, String> env, String... command) throws Exception {
        Path out = Files.createTempFile(work, "out", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile());
        builder.environment().remove("LOADWISE_ADMIN_TOKEN");
        builder.environment().remove("NOTIFY_SOCKET");
        builder.environment().putAll(env);
        Process process = builder.start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " finishes");
        return new Result(process.exitValue(), Files.readString(out));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String list(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir, 2)) {
            return files.map(dir::relativize).map(Path::toString).toList().toString();
        }
    }
}
