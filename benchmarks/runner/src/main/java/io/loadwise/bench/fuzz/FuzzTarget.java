package io.loadwise.bench.fuzz;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * One Jazzer fuzz target: a {@code *FuzzTest} class under a module's {@code src/test/java}, the naming rule
 * that the surefire execution "fuzz" of the parent pom also follows. Adding such a class is all it takes
 * for {@code mvn verify} and {@code loadwise bench fuzz} to run it.
 *
 * @param module the Maven module's directory, relative to the repository root ({@code node-agent/core})
 * @param className the fully qualified class name
 */
public record FuzzTarget(String module, String className) {

    /** Directories that hold no sources: build output, run-time data, results, VCS metadata. */
    private static final Set<String> SKIPPED = Set.of("target", ".git", "node_modules", ".cifuzz-corpus", ".idea");
    /** What the demo, the launcher and the benchmarks write at the repository root. */
    private static final Set<String> RUN_TIME_DATA = Set.of("data", "logs", "benchmarks/results");
    private static final String TEST_SOURCES = "src/test/java/";

    public String simpleName() {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    /** Every fuzz target under {@code root}, sorted by module and class. */
    public static List<FuzzTarget> discover(Path root) throws IOException {
        List<FuzzTarget> targets = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                if (dir.equals(root)) {
                    return FileVisitResult.CONTINUE;
                }
                String relative = root.relativize(dir).toString().replace('\\', '/');
                boolean skipped = SKIPPED.contains(dir.getFileName().toString()) || RUN_TIME_DATA.contains(relative);
                return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                String relative = root.relativize(file).toString().replace('\\', '/');
                int sources = relative.indexOf(TEST_SOURCES);
                if (relative.endsWith("FuzzTest.java") && sources > 0
                        && Files.isRegularFile(root.resolve(relative.substring(0, sources)).resolve("pom.xml"))) {
                    String module = relative.substring(0, sources - 1);
                    String path = relative.substring(sources + TEST_SOURCES.length(), relative.length() - ".java".length());
                    targets.add(new FuzzTarget(module, path.replace('/', '.')));
                }
                return FileVisitResult.CONTINUE;
            }
        });
        targets.sort(Comparator.comparing(FuzzTarget::module).thenComparing(FuzzTarget::className));
        return targets;
    }
}
