package io.loadwise.node.tomcat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Unpacks a WAR into a directory and copies extra JARs into its {@code WEB-INF/lib}, so the agent
 * is an ordinary library of the web application (its web fragment and filter are picked up).
 */
public final class WebappUnpacker {

    private WebappUnpacker() {
    }

    /** Unpacks {@code war} into {@code target}, which must not exist yet, and adds {@code extraJars}. */
    public static Path unpack(Path war, Path target, List<Path> extraJars) throws IOException {
        if (!Files.isRegularFile(war)) {
            throw new IOException("WAR not found: " + war.toAbsolutePath());
        }
        for (Path jar : extraJars) {
            if (!Files.isRegularFile(jar) || !jar.getFileName().toString().endsWith(".jar")) {
                throw new IOException("not a JAR file: " + jar.toAbsolutePath());
            }
        }
        Path root = target.toAbsolutePath().normalize();
        if (Files.exists(root)) {
            throw new IOException("webapp directory already exists: " + root);
        }
        Files.createDirectories(root);
        try (ZipFile zip = new ZipFile(war.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                Path out = root.resolve(entry.getName()).normalize();
                if (!out.startsWith(root)) {
                    throw new IOException("WAR entry escapes the webapp directory: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(out);
                } else {
                    Files.createDirectories(out.getParent());
                    try (InputStream in = zip.getInputStream(entry)) {
                        Files.copy(in, out);
                    }
                }
            }
        }
        Path lib = Files.createDirectories(root.resolve("WEB-INF").resolve("lib"));
        for (Path jar : extraJars) {
            Files.copy(jar, lib.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        return root;
    }
}
