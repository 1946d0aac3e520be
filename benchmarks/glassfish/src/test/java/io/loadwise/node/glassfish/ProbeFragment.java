package io.loadwise.node.glassfish;

import io.loadwise.node.glassfish.probe.ProbeServlet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Builds the probe (ProbeServlet and its web-fragment.xml from the test class path) as a fragment jar. */
final class ProbeFragment {

    private ProbeFragment() {
    }

    static Path build(Path target) throws IOException {
        String servletClass = ProbeServlet.class.getName().replace('.', '/') + ".class";
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(target))) {
            add(out, "META-INF/web-fragment.xml", "probe-fragment/META-INF/web-fragment.xml");
            add(out, servletClass, servletClass);
        }
        return target;
    }

    private static void add(ZipOutputStream out, String entry, String resource) throws IOException {
        try (InputStream in = ProbeFragment.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("test resource " + resource + " is missing");
            }
            out.putNextEntry(new ZipEntry(entry));
            in.transferTo(out);
            out.closeEntry();
        }
    }
}
