package io.loadwise.node.glassfish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.node.provision.WarRepackager;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceMappingTest {

    @TempDir
    Path temp;

    @Test
    void addsADescriptorBindingTheResourceRefToTheSameNamedServerResource() throws Exception {
        Path war = war("plain.war", Map.of("WEB-INF/web.xml", "<web-app/>"));
        Path mapped = ResourceMapping.mapped(war, "jdbc/TradeDB", temp.resolve("out/plain.war"));
        assertEquals(temp.resolve("out/plain.war"), mapped);
        String descriptor = entry(mapped, ResourceMapping.DESCRIPTOR);
        assertTrue(descriptor.contains("<res-ref-name>jdbc/TradeDB</res-ref-name>"), descriptor);
        assertTrue(descriptor.contains("<jndi-name>jdbc/TradeDB</jndi-name>"), descriptor);
        assertEquals("<web-app/>", entry(mapped, "WEB-INF/web.xml"));
    }

    @Test
    void leavesAWarWithItsOwnDescriptorAlone() throws Exception {
        Path war = war("own.war", Map.of(ResourceMapping.DESCRIPTOR, "<glassfish-web-app/>"));
        assertEquals(war, ResourceMapping.mapped(war, "jdbc/TradeDB", temp.resolve("out/own.war")));
    }

    private Path war(String name, Map<String, String> entries) throws Exception {
        Path empty = temp.resolve("empty-" + name);
        try (var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(empty))) {
            out.putNextEntry(new java.util.zip.ZipEntry("META-INF/MANIFEST.MF"));
            out.closeEntry();
        }
        Map<String, byte[]> bytes = new java.util.HashMap<>();
        entries.forEach((k, v) -> bytes.put(k, v.getBytes(StandardCharsets.UTF_8)));
        return WarRepackager.withEntries(empty, bytes, temp.resolve(name));
    }

    private static String entry(Path zip, String name) throws Exception {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (var e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                if (e.getName().equals(name)) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        }
        throw new AssertionError(name + " not in " + zip);
    }
}
