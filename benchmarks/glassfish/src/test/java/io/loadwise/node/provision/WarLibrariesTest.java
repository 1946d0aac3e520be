package io.loadwise.node.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WarLibrariesTest {

    @TempDir
    Path temp;

    @Test
    void addsJarsToWebInfLibAndReplacesOnesOfTheSameName() throws IOException {
        Path war = zip("app.war", Map.of("WEB-INF/web.xml", "<web-app/>", "WEB-INF/lib/agent.jar", "old"));
        Path agent = Files.writeString(temp.resolve("agent.jar"), "new");
        Path driver = Files.writeString(temp.resolve("driver.jar"), "driver");

        Path out = WarLibraries.addTo(war, List.of(agent, driver), temp.resolve("out/app.war"));

        assertEquals(Map.of("WEB-INF/web.xml", "<web-app/>", "WEB-INF/lib/agent.jar", "new",
                "WEB-INF/lib/driver.jar", "driver"), read(out));
    }

    @Test
    void rejectsSomethingThatIsNotAnArchive() throws IOException {
        Path notWar = Files.writeString(temp.resolve("x.war"), "plain text");
        IOException e = assertThrows(IOException.class,
                () -> WarLibraries.addTo(notWar, List.of(), temp.resolve("y.war")));
        assertEquals(notWar + " is not a WAR: it has no zip entries", e.getMessage());
    }

    private Path zip(String name, Map<String, String> entries) throws IOException {
        Path file = temp.resolve(name);
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(file))) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                out.putNextEntry(new ZipEntry(e.getKey()));
                out.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return file;
    }

    private static Map<String, String> read(Path zip) throws IOException {
        Map<String, String> entries = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            ZipEntry entry;
            while ((entry = in.getNextEntry()) != null) {
                entries.put(entry.getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return entries;
    }
}
