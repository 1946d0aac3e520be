package io.loadwise.node.glassfish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.node.provision.NodeSpec;
import io.loadwise.node.provision.ProvisioningException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the provisioner rejects before it creates a domain (the real start is GlassFishNodeIT's). */
class GlassFishProvisionerTest {

    @TempDir
    Path temp;

    @Test
    void aDatabaseGlassFishCannotReachFailsBeforeAnyDomainExists() throws Exception {
        Path war = war();
        Path domains = temp.resolve("domains");
        GlassFishProvisioner provisioner = new GlassFishProvisioner(GlassFishInstallation.fromSystemProperty(), domains);
        NodeSpec spec = new NodeSpec("VCN1", 0, 256, 6, 12, 5, war, "/trade", List.of(),
                "jdbc:postgresql://127.0.0.1/trade", "trade", "secret");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> provisioner.start(spec));

        assertTrue(e.getMessage().contains("only jdbc:h2: URLs are supported"), e.getMessage());
        assertFalse(Files.exists(domains.resolve("VCN1")), "no domain was created");
        assertNull(provisioner.server());
        provisioner.stop();
    }

    @Test
    void aFileThatIsNotAWarFailsBeforeAnyDomainExists() throws Exception {
        Path notWar = Files.writeString(temp.resolve("trade.war"), "plain text");
        Path domains = temp.resolve("domains");
        GlassFishProvisioner provisioner = new GlassFishProvisioner(GlassFishInstallation.fromSystemProperty(), domains);
        NodeSpec spec = new NodeSpec("VCN1", 0, 256, 6, 12, 5, notWar, "/trade", List.of(),
                "jdbc:h2:tcp://127.0.0.1:9092/trade", "sa", "");

        ProvisioningException e = assertThrows(ProvisioningException.class, () -> provisioner.start(spec));

        assertTrue(e.getMessage().contains(notWar + " is not a WAR"), e.getMessage());
        assertFalse(Files.exists(domains.resolve("VCN1")), "no domain was created");
    }

    private Path war() throws Exception {
        Path war = temp.resolve("app.war");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(war))) {
            out.putNextEntry(new ZipEntry("WEB-INF/web.xml"));
            out.closeEntry();
        }
        return war;
    }

    @Test
    void anInstallationWithoutAsadminIsRejectedWithWhatIsMissing() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GlassFishInstallation(temp, Path.of(System.getProperty("java.home"))));
        assertEquals("not a GlassFish 7 installation: " + temp + " has no glassfish/lib/client/appserver-cli.jar"
                + " (point loadwise.glassfish.home at the glassfish7 directory of the distribution zip)", e.getMessage());
    }
}
