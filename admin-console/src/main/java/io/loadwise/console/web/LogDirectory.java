package io.loadwise.console.web;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The directory of the dispatcher's log file and the files directly in it. A file is named by its bare
 * name only; anything else (separators, {@code ..}, absolute paths, symbolic links, sub-directories) is
 * refused, so no request can read outside the directory.
 */
public final class LogDirectory {

    /** The tail view reads at most this much from the end of a file. */
    static final int MAX_TAIL_BYTES = 4 * 1024 * 1024;

    private final Path dir;

    /** @param dir {@code null} when logging goes to the console only */
    public LogDirectory(Path dir) {
        this.dir = dir == null ? null : dir.toAbsolutePath().normalize();
    }

    /** The directory of {@code logging.file}, or {@code null} when it is not set. */
    public static LogDirectory ofLogFile(String logFile) {
        if (logFile == null || logFile.isBlank()) {
            return new LogDirectory(null);
        }
        Path parent = Path.of(logFile).toAbsolutePath().getParent();
        return new LogDirectory(parent);
    }

    public Path dir() {
        return dir;
    }

    /** One file of the directory. */
    public record LogFile(String name, long size, long lastModifiedMillis) {
    }

    /** The regular files in the directory, newest first; empty when there is none or no directory. */
    public List<LogFile> list() throws IOException {
        List<LogFile> files = new ArrayList<>();
        if (dir == null || !Files.isDirectory(dir)) {
            return files;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    files.add(new LogFile(p.getFileName().toString(), Files.size(p),
                            Files.getLastModifiedTime(p).toMillis()));
                }
            }
        }
        files.sort(Comparator.comparingLong(LogFile::lastModifiedMillis).reversed());
        return files;
    }

    /**
     * The file with this bare name.
     *
     * @throws IllegalArgumentException when the name is not a plain file of the directory
     */
    public Path resolve(String name) {
        if (dir == null) {
            throw new IllegalArgumentException("no log directory: logging.file is not set");
        }
        if (name == null || name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
                || name.indexOf('\\') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("'" + name + "' is not a log file name");
        }
        Path file = dir.resolve(name).normalize();
        if (!dir.equals(file.getParent()) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException("no log file named '" + name + "' in " + dir);
        }
        return file;
    }

    /** The last {@code lines} lines of a file (at most {@link #MAX_TAIL_BYTES} from its end), as UTF-8. */
    public static List<String> tail(Path file, int lines) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long length = raf.length();
            int toRead = (int) Math.min(length, MAX_TAIL_BYTES);
            byte[] bytes = new byte[toRead];
            raf.seek(length - toRead);
            raf.readFully(bytes);
            String text = new String(bytes, StandardCharsets.UTF_8);
            List<String> all = List.of(text.split("\r?\n", -1));
            int end = all.size();
            if (end > 0 && all.get(end - 1).isEmpty()) {
                end--;
            }
            int start = Math.max(toRead < length ? 1 : 0, end - lines);
            return all.subList(Math.min(start, end), end);
        }
    }
}
