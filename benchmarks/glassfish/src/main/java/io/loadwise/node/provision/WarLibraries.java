package io.loadwise.node.provision;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Repackages a WAR with extra jars in {@code WEB-INF/lib}: how the node agent (a web-fragment jar) gets
 * into an application for servers that are handed a WAR, such as GlassFish.
 */
public final class WarLibraries {

    private static final String LIB = "WEB-INF/lib/";

    private WarLibraries() {
    }

    /**
     * Writes {@code target}: every entry of {@code war}, plus each jar as {@code WEB-INF/lib/<file name>}.
     * A jar of the same name already in the WAR is replaced.
     *
     * @throws IOException when a file cannot be read or written, or two jars share a file name
     */
    public static Path addTo(Path war, List<Path> jars, Path target) throws IOException {
        Set<String> added = new HashSet<>();
        for (Path jar : jars) {
            if (!added.add(LIB + jar.getFileName())) {
                throw new IOException("two jars named " + jar.getFileName() + " cannot both go to " + LIB);
            }
        }
        Path parent = target.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(war));
             ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(target))) {
            ZipEntry entry;
            boolean any = false;
            while ((entry = in.getNextEntry()) != null) {
                any = true;
                if (added.contains(entry.getName())) {
                    continue;
                }
                out.putNextEntry(new ZipEntry(entry.getName()));
                in.transferTo(out);
                out.closeEntry();
            }
            if (!any) {
                throw new IOException(war + " is not a WAR: it has no zip entries");
            }
            for (Path jar : jars) {
                out.putNextEntry(new ZipEntry(LIB + jar.getFileName()));
                copy(jar, out);
                out.closeEntry();
            }
        }
        return target;
    }

    private static void copy(Path file, OutputStream out) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            in.transferTo(out);
        }
    }
}
