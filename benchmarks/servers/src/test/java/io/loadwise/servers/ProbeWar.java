package io.loadwise.servers;

import io.loadwise.servers.probe.ProbeServlet;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Builds the minimal WAR the server tests deploy: the probe servlet and the agent JAR in WEB-INF/lib. */
final class ProbeWar {

    private ProbeWar() {
    }

    static Path build(Path agentJar, Path war) throws IOException {
        String classFile = ProbeServlet.class.getName().replace('.', '/') + ".class";
        Files.createDirectories(war.getParent());
        try (OutputStream file = Files.newOutputStream(war); ZipOutputStream zip = new ZipOutputStream(file);
             InputStream servlet = ProbeWar.class.getClassLoader().getResourceAsStream(classFile)) {
            if (servlet == null) {
                throw new IllegalStateException(classFile + " is not on the test class path");
            }
            zip.putNextEntry(new ZipEntry("WEB-INF/classes/" + classFile));
            servlet.transferTo(zip);
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("WEB-INF/lib/loadwise-agent-jakarta.jar"));
            Files.copy(agentJar, zip);
            zip.closeEntry();
        }
        return war;
    }
}
