package io.loadwise.node.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebappUnpackerTest {

    @TempDir
    Path dir;

    @Test
    void unpacksTheWarAndAddsTheExtraJarsToWebInfLib() throws IOException {
        Path war = zip(dir.resolve("app.war"), "WEB-INF/web.xml", "<web-app/>");
        Path agent = zip(dir.resolve("agent.jar"), "META-INF/web-fragment.xml", "<web-fragment/>");

        Path root = WebappUnpacker.unpack(war, dir.resolve("webapp"), List.of(agent));

        assertEquals("<web-app/>", Files.readString(root.resolve("WEB-INF/web.xml")));
        assertEquals(Files.size(agent), Files.size(root.resolve("WEB-INF/lib/agent.jar")));
    }

    @Test
    void refusesEntriesThatEscapeTheWebappDirectory() throws IOException {
        Path war = zip(dir.resolve("evil.war"), "../outside.txt", "x");
        IOException e = assertThrows(IOException.class,
                () -> WebappUnpacker.unpack(war, dir.resolve("webapp"), List.of()));
        assertEquals("WAR entry escapes the webapp directory: ../outside.txt", e.getMessage());
        assertFalse(Files.exists(dir.resolve("outside.txt")));
    }

    @Test
    void namesMissingOrWrongInputs() throws IOException {
        Path war = zip(dir.resolve("app.war"), "index.html", "hi");
        IOException noWar = assertThrows(IOException.class,
                () -> WebappUnpacker.unpack(dir.resolve("none.war"), dir.resolve("a"), List.of()));
        assertTrue(noWar.getMessage().startsWith("WAR not found: "), noWar.getMessage());
        Path notJar = Files.writeString(dir.resolve("agent.txt"), "x");
        IOException badJar = assertThrows(IOException.class,
                () -> WebappUnpacker.unpack(war, dir.resolve("b"), List.of(notJar)));
        assertTrue(badJar.getMessage().startsWith("not a JAR file: "), badJar.getMessage());
        Files.createDirectories(dir.resolve("c"));
        IOException exists = assertThrows(IOException.class,
                () -> WebappUnpacker.unpack(war, dir.resolve("c"), List.of()));
        assertTrue(exists.getMessage().startsWith("webapp directory already exists: "), exists.getMessage());
    }

    private static Path zip(Path file, String entry, String content) throws IOException {
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(file))) {
            out.putNextEntry(new ZipEntry(entry));
            out.write(content.getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return file;
    }
}
