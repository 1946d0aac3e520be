package io.loadwise.dispatcher.config;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Persists the configuration file atomically: the new content is written to a temporary file in the
 * same directory and forced to disk, the current file is kept as {@code <file>.bak}, and the temporary
 * file is renamed over the original. A crash leaves either the old or the new file, never half of one.
 * Callers validate before they write; this class does not.
 *
 * <p>A write killed before its rename leaves its temporary file behind ({@code .<file>.<digits>.tmp}); opening
 * the store at start removes those of this file, with an INFO line.
 */
public final class ConfigStore {

    private static final Logger log = LoggerFactory.getLogger(ConfigStore.class);
    private static final String TEMP_SUFFIX = ".tmp";

    private final Path file;

    public ConfigStore(Path file) {
        this.file = file.toAbsolutePath();
        removeStaleTempFiles();
    }

    public Path file() {
        return file;
    }

    public Path backup() {
        return file.resolveSibling(file.getFileName() + ".bak");
    }

    public LoadwiseConfig load() throws ConfigValidationException {
        return ConfigLoader.load(file);
    }

    /** Writes {@code config} as pretty-printed JSON. */
    public synchronized void write(LoadwiseConfig config) throws IOException {
        byte[] bytes = ConfigLoader.toJson(config).getBytes(StandardCharsets.UTF_8);
        Path dir = file.getParent();
        Path temp = Files.createTempFile(dir, tempPrefix(), TEMP_SUFFIX);
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            if (Files.exists(file)) {
                Files.copy(file, backup(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            syncDirectory(dir);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private String tempPrefix() {
        return "." + file.getFileName() + ".";
    }

    /**
     * Removes the temporary files that interrupted writes of this file left in its directory. Only names
     * {@link #write} makes ({@code .<file>.<digits>.tmp}) and only regular files are touched; a file that
     * cannot be removed is logged and left.
     *
     * @return the files removed
     */
    List<Path> removeStaleTempFiles() {
        Path dir = file.getParent();
        List<Path> removed = new ArrayList<>();
        if (dir == null || !Files.isDirectory(dir)) {
            return removed;
        }
        String prefix = tempPrefix();
        try (DirectoryStream<Path> candidates = Files.newDirectoryStream(dir, prefix + "*" + TEMP_SUFFIX)) {
            for (Path candidate : candidates) {
                String name = candidate.getFileName().toString();
                String middle = name.substring(prefix.length(), name.length() - TEMP_SUFFIX.length());
                if (!middle.matches("[0-9]+") || !Files.isRegularFile(candidate, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                try {
                    Files.delete(candidate);
                    removed.add(candidate);
                } catch (NoSuchFileException e) {
                    // Gone meanwhile: nothing to clean.
                } catch (IOException e) {
                    log.warn("config: cannot remove the stale temporary file {}: {}", candidate, e.toString());
                }
            }
        } catch (IOException e) {
            log.warn("config: cannot look for stale temporary files of {}: {}", file, e.toString());
        }
        if (!removed.isEmpty()) {
            List<String> names = removed.stream().map(p -> p.getFileName().toString()).sorted().toList();
            log.info("config: removed {} temporary {} left by an interrupted write of {}: {}{}", names.size(),
                    names.size() == 1 ? "file" : "files", file, String.join(", ", names.subList(0, Math.min(10, names.size()))),
                    names.size() > 10 ? " and " + (names.size() - 10) + " more" : "");
        }
        return removed;
    }

    /** Makes the rename itself durable where the platform allows opening a directory. */
    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Not possible on every platform (Windows); the rename is still atomic there.
        }
    }
}
