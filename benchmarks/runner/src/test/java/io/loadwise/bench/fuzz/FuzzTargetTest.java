package io.loadwise.bench.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FuzzTargetTest {

    @TempDir
    Path root;

    private void write(String relative) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "");
    }

    @Test
    void findsFuzzTestClassesOfModulesAndNothingInBuildOutputOrRunTimeData() throws IOException {
        write("pom.xml");
        write("a/pom.xml");
        write("a/src/test/java/io/x/ParserFuzzTest.java");
        write("a/src/test/java/io/x/ParserTest.java");
        write("b/c/pom.xml");
        write("b/c/src/test/java/HeadFuzzTest.java");
        write("a/target/generated-test-sources/src/test/java/io/x/CopyFuzzTest.java");
        write("data/demo/m/pom.xml");
        write("data/demo/m/src/test/java/DemoFuzzTest.java");
        write("benchmarks/results/x/pom.xml");
        write("benchmarks/results/x/src/test/java/OldFuzzTest.java");
        write("loose/src/test/java/NoModuleFuzzTest.java"); // no pom.xml: not a module
        assertEquals(List.of(new FuzzTarget("a", "io.x.ParserFuzzTest"), new FuzzTarget("b/c", "HeadFuzzTest")),
                FuzzTarget.discover(root));
        assertEquals("ParserFuzzTest", new FuzzTarget("a", "io.x.ParserFuzzTest").simpleName());
    }

    @Test
    void findsThisRepositorysTargets() throws IOException {
        Path repository = Path.of(System.getProperty("user.dir")).resolve("../..").normalize();
        List<FuzzTarget> targets = FuzzTarget.discover(repository);
        for (FuzzTarget expected : List.of(
                new FuzzTarget("wire", "io.loadwise.wire.OrcaLoadReportFuzzTest"),
                new FuzzTarget("wire", "io.loadwise.wire.MetricsJsonFuzzTest"),
                new FuzzTarget("dispatcher", "io.loadwise.dispatcher.config.ConfigLoaderFuzzTest"))) {
            assertTrue(targets.contains(expected), () -> expected + " not in " + targets);
        }
    }
}
