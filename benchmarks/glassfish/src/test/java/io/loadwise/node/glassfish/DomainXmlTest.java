package io.loadwise.node.glassfish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.node.provision.ProvisioningException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DomainXmlTest {

    @TempDir
    Path temp;

    @Test
    void replacesOnlyTheServerConfigHeap() throws Exception {
        Path xml = write("""
                <domain>
                  <configs>
                    <config name="server-config"><java-config>
                      <jvm-options>-XX:NewRatio=2</jvm-options><jvm-options>-Xmx512m</jvm-options>
                    </java-config></config>
                    <config name="default-config"><java-config><jvm-options>-Xmx512m</jvm-options></java-config></config>
                  </configs>
                </domain>""");
        DomainXml.setMaxHeap(xml, 256);
        String text = Files.readString(xml);
        assertEquals(2, count(text, "<jvm-options>-Xm"));
        assertEquals(1, count(text, "<jvm-options>-Xmx256m</jvm-options>"));
        assertEquals(1, count(text, "<jvm-options>-XX:NewRatio=2</jvm-options>"));
        assertTrue(text.indexOf("-Xmx256m") < text.indexOf("default-config"), "heap set in server-config");
    }

    @Test
    void addsAHeapOptionWhenThereIsNone() throws Exception {
        Path xml = write("<domain><config name=\"server-config\"><java-config/></config></domain>");
        DomainXml.setMaxHeap(xml, 300);
        assertEquals(1, count(Files.readString(xml), "<jvm-options>-Xmx300m</jvm-options>"));
    }

    @Test
    void failsClearlyWithoutAServerConfig() throws Exception {
        Path xml = write("<domain><config name=\"default-config\"><java-config/></config></domain>");
        ProvisioningException e = assertThrows(ProvisioningException.class, () -> DomainXml.setMaxHeap(xml, 300));
        assertEquals(xml + " has no <config name=\"server-config\">", e.getMessage());
    }

    private Path write(String xml) throws Exception {
        return Files.writeString(temp.resolve("domain.xml"), xml);
    }

    private static int count(String text, String needle) {
        Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
