package io.loadwise.dispatcher.config;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Persists the configuration file atomically: the new content is written to a temporary file in the
 * same directory and forced to disk, the current file is kept as {@code <file>.bak}, and the temporary
 * file is renamed over the original. A crash leaves either the old or the new file, never half of one.
 * Callers validate before they write; this class does not.
 */
public final class ConfigStore {

    private final Path file;

    public ConfigStore(Path file) {
        this.file = file.toAbsolutePath();
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
        Path temp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
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

    /** Makes the rename itself durable where the platform allows opening a directory. */
    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Not possible on every platform (Windows); the rename is still atomic there.
        }
    }
}
