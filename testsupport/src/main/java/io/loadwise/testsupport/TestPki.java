package io.loadwise.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority made with the {@code openssl} command line in a temporary
 * directory: a CA, and certificates it signs for the names a test needs. Nothing here is committed;
 * every key is generated per test run.
 */
public final class TestPki {

    public final Path dir;
    public final Path caCert;
    private final Path caKey;
    private int serial = 1;

    public TestPki(Path dir) throws IOException {
        this.dir = dir;
        this.caCert = dir.resolve("ca.pem");
        this.caKey = dir.resolve("ca.key");
        run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", caKey.toString(), "-out", caCert.toString(), "-days", "30", "-subj", "/CN=Loadwise Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    }

    /** A certificate and key pair on disk. */
    public record Issued(Path certificate, Path key) {
    }

    /** A certificate for {@code cn} with DNS names {@code sans} (IP 127.0.0.1 too), signed by the CA. */
    public Issued issue(String file, String cn, String... sans) throws IOException {
        Path key = dir.resolve(file + ".key");
        Path csr = dir.resolve(file + ".csr");
        Path cert = dir.resolve(file + ".pem");
        List<String> req = new ArrayList<>(List.of("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-keyout", key.toString(), "-out", csr.toString(), "-subj", "/CN=" + cn));
        if (sans.length > 0) {
            StringBuilder alt = new StringBuilder("subjectAltName=IP:127.0.0.1");
            for (String san : sans) {
                alt.append(",DNS:").append(san);
            }
            req.add("-addext");
            req.add(alt.toString());
        }
        run(req.toArray(String[]::new));
        run("x509", "-req", "-in", csr.toString(), "-CA", caCert.toString(), "-CAkey", caKey.toString(),
                "-set_serial", String.valueOf(++serial), "-out", cert.toString(), "-days", "30",
                "-copy_extensions", "copy");
        return new Issued(cert, key);
    }

    /** {@code issued}'s key encrypted with {@code password} (PKCS#8, PBES2 with AES-256). */
    public Path encryptedKey(Issued issued, String password) throws IOException {
        Path out = dir.resolve(issued.key().getFileName() + ".enc");
        run("pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", issued.key().toString(), "-out", out.toString(),
                "-passout", "pass:" + password);
        return out;
    }

    /** A self-signed certificate that expired in 2020. */
    public Issued expired(String file) throws IOException {
        Path key = dir.resolve(file + ".key");
        Path csr = dir.resolve(file + ".csr");
        Path cert = dir.resolve(file + ".pem");
        Path db = Files.createDirectories(dir.resolve(file + "-db"));
        Files.writeString(db.resolve("index"), "");
        Files.writeString(db.resolve("serial"), "01\n");
        Path cnf = dir.resolve(file + ".cnf");
        Files.writeString(cnf, "[ca]\ndefault_ca = d\n[d]\ndatabase = " + db.resolve("index") + "\nnew_certs_dir = "
                + db + "\nserial = " + db.resolve("serial") + "\ndefault_md = sha256\npolicy = p\n"
                + "[p]\ncommonName = supplied\n");
        run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key.toString(),
                "-out", csr.toString(), "-subj", "/CN=" + file);
        run("ca", "-batch", "-config", cnf.toString(), "-selfsign", "-keyfile", key.toString(), "-in", csr.toString(),
                "-out", cert.toString(), "-startdate", "20200101000000Z", "-enddate", "20200102000000Z");
        return new Issued(cert, key);
    }

    /** Runs {@code openssl args}; fails with its output when it fails. */
    public static String run(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(List.of(args));
        return exec(command, null, 30).output();
    }

    /** What a command printed (stdout and stderr together) and its exit code. */
    public record Result(int exit, String output) {
    }

    /** Runs {@code command} with {@code stdin}, up to {@code seconds}; throws only when it cannot run or hangs. */
    public static Result exec(List<String> command, String stdin, int seconds) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Process process = builder.start();
        try {
            if (stdin != null) {
                process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(command + ": did not finish within " + seconds + " s");
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (command.get(0).equals("openssl") && !command.get(1).equals("s_client") && process.exitValue() != 0) {
                throw new IOException(command + " failed: " + text);
            }
            return new Result(process.exitValue(), text);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted", e);
        }
    }

    /**
     * A client TLS context that accepts any server certificate: for tests that read what a server presents (which
     * certificate, which protocol), not whether it is trusted.
     */
    public static javax.net.ssl.SSLContext readingAnyCertificate() throws java.security.GeneralSecurityException {
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(null, new javax.net.ssl.TrustManager[] {new javax.net.ssl.X509TrustManager() {
            @Override
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
            }

            @Override
            public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                return new java.security.cert.X509Certificate[0];
            }
        }}, null);
        return context;
    }
}
