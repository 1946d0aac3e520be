package io.loadwise.node.provision;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Copies a WAR with entries added or replaced: how the node agent (a web-fragment jar in
 * {@code WEB-INF/lib}) or a server-specific deployment descriptor gets into an application that a
 * server is handed as an archive.
 */
public final class WarRepackager {

    private static final String LIB = "WEB-INF/lib/";

    private WarRepackager() {
    }

    /** Writes {@code target}: {@code war} plus each jar as {@code WEB-INF/lib/<file name>}, replacing namesakes. */
    public static Path withLibraries(Path war, List<Path> jars, Path target) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        for (Path jar : jars) {
            if (entries.put(LIB + jar.getFileName(), Files.readAllBytes(jar)) != null) {
                throw new IOException("two jars named " + jar.getFileName() + " cannot both go to " + LIB);
            }
        }
        return withEntries(war, entries, target);
    }

    /**
     * Writes {@code target}: every entry of {@code war} except those named in {@code entries}, then the
     * given entries.
     *
     * @throws IOException when a file cannot be read or written, or {@code war} is not a zip archive
     */
    public static Path withEntries(Path war, Map<String, byte[]> entries, Path target) throws IOException {
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
                if (!entries.containsKey(entry.getName())) {
                    out.putNextEntry(new ZipEntry(entry.getName()));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
            if (!any) {
                throw new IOException(war + " is not a WAR: it has no zip entries");
            }
            for (Map.Entry<String, byte[]> added : entries.entrySet()) {
                out.putNextEntry(new ZipEntry(added.getKey()));
                out.write(added.getValue());
                out.closeEntry();
            }
        }
        return target;
    }

    /** Whether the archive has an entry of that name. */
    public static boolean contains(Path war, String entryName) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(war))) {
            ZipEntry entry;
            while ((entry = in.getNextEntry()) != null) {
                if (entry.getName().equals(entryName)) {
                    return true;
                }
            }
        }
        return false;
    }
}
