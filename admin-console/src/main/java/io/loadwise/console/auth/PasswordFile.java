package io.loadwise.console.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The admin password hash on disk: one line in {@code <admin.dataDir>/admin-password}, readable by the
 * owner only (0600). Replaced atomically (temporary file + rename), so a crash leaves the old or the new
 * hash, never half of one.
 */
public final class PasswordFile {

    public static final String FILE_NAME = "admin-password";
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final Path file;

    public PasswordFile(Path file) {
        this.file = file;
    }

    /** The file inside an admin data directory. */
    public static PasswordFile inDataDir(Path dataDir) {
        return new PasswordFile(dataDir.resolve(FILE_NAME));
    }

    public Path path() {
        return file;
    }

    public boolean exists() {
        return Files.isRegularFile(file);
    }

    /** The stored hash, or {@code null} when no password has been set. */
    public String read() throws IOException {
        if (!exists()) {
            return null;
        }
        String text = Files.readString(file, StandardCharsets.UTF_8).trim();
        return text.isEmpty() ? null : text;
    }

    public void write(String encodedHash) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        FileAttribute<?>[] attrs = POSIX
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                : new FileAttribute<?>[0];
        Path temp = Files.createTempFile(dir, ".admin-password-", ".tmp", attrs);
        try {
            Files.writeString(temp, encodedHash + "\n", StandardCharsets.UTF_8);
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            if (POSIX) {
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
