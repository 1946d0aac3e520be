package io.loadwise.node.glassfish;

import io.loadwise.node.glassfish.probe.ProbeServlet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Builds the probe web application (ProbeServlet + web.xml from the test class path) as a WAR. */
final class ProbeWar {

    private ProbeWar() {
    }

    static Path build(Path target) throws IOException {
        String servletClass = ProbeServlet.class.getName().replace('.', '/') + ".class";
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(target))) {
            add(out, "WEB-INF/web.xml", "probe-war/WEB-INF/web.xml");
            add(out, "WEB-INF/classes/" + servletClass, servletClass);
        }
        return target;
    }

    private static void add(ZipOutputStream out, String entry, String resource) throws IOException {
        try (InputStream in = ProbeWar.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("test resource " + resource + " is missing");
            }
            out.putNextEntry(new ZipEntry(entry));
            in.transferTo(out);
            out.closeEntry();
        }
    }
}
