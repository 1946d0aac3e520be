package io.loadwise.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadAverageTest {

    @TempDir
    Path dir;

    @Test
    void readsTheThreeAveragesOfProcLoadavg() throws IOException {
        Path file = dir.resolve("loadavg");
        Files.writeString(file, "3.52 2.58 1.09 4/467 12345\n");
        LoadAverage load = LoadAverage.read(file);
        assertEquals(new LoadAverage(3.52, 2.58, 1.09), load);
        assertEquals("3.52,2.58,1.09", load.csv());
    }

    @Test
    void aMissingOrGarbledFileIsUnknownNotAnError() throws IOException {
        assertEquals(",,", LoadAverage.read(dir.resolve("absent")).csv());
        Path garbled = dir.resolve("garbled");
        Files.writeString(garbled, "load\n");
        assertEquals(LoadAverage.UNKNOWN.csv(), LoadAverage.read(garbled).csv());
    }
}
