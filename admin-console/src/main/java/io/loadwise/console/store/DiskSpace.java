package io.loadwise.console.store;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The free and total space of the file system the stores live on. An interface so a test can play a
 * nearly full disk without filling one.
 */
public interface DiskSpace {

    /** Bytes this process may still write (what {@link FileStore#getUsableSpace()} says). */
    long usableBytes() throws IOException;

    /** Size of the file system in bytes. */
    long totalBytes() throws IOException;

    /** The file system holding {@code dir}, or holding its nearest existing parent while it does not exist yet. */
    static DiskSpace of(Path dir) {
        return new DiskSpace() {
            @Override
            public long usableBytes() throws IOException {
                return store().getUsableSpace();
            }

            @Override
            public long totalBytes() throws IOException {
                return store().getTotalSpace();
            }

            private FileStore store() throws IOException {
                Path existing = dir.toAbsolutePath();
                while (existing != null && !Files.exists(existing)) {
                    existing = existing.getParent();
                }
                if (existing == null) {
                    throw new IOException("no existing directory above " + dir);
                }
                return Files.getFileStore(existing);
            }
        };
    }
}
