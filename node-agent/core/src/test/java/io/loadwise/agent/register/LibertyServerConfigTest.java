package io.loadwise.agent.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Liberty's clone id from real configuration files in the layout Liberty reads them from. */
class LibertyServerConfigTest {

    @TempDir
    Path server;

    private void write(String relative, String text) throws IOException {
        Path file = server.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private String cloneId() {
        return LibertyServerConfig.cloneId(server, Map.of("NODE_ROUTE", "envroute"));
    }

    @Test
    void theCloneIdOfServerXml() throws IOException {
        write("server.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <server description="probe">
                  <featureManager><feature>servlet-6.0</feature></featureManager>
                  <httpSession cloneId=" ol1 " invalidationTimeout="30m"/>
                </server>
                """);
        assertEquals("ol1", cloneId());
    }

    @Test
    void noCloneIdNoConfigurationOrAnUnreadableOneGiveNoRoute() throws IOException {
        assertNull(cloneId(), "no server.xml");
        write("server.xml", "<server><httpSession invalidationTimeout=\"30m\"/></server>");
        assertNull(cloneId(), "httpSession without cloneId (Liberty generates one nobody can read)");
        write("server.xml", "<server><httpSession cloneId=\"\"/></server>");
        assertNull(cloneId(), "empty");
        write("server.xml", "<server><httpSession cloneId=\"ol1\"></server>");
        assertNull(cloneId(), "not well-formed");
    }

    @Test
    void overridesWinOverServerXmlWhichWinsOverDefaults() throws IOException {
        write("configDropins/defaults/a.xml", "<server><httpSession cloneId=\"fromDefaults\"/></server>");
        assertEquals("fromDefaults", cloneId());
        write("server.xml", "<server><httpSession cloneId=\"fromServer\"/></server>");
        assertEquals("fromServer", cloneId());
        write("configDropins/overrides/b.xml", "<server><httpSession cloneId=\"fromB\"/></server>");
        write("configDropins/overrides/a.xml", "<server><httpSession cloneId=\"fromA\"/></server>");
        assertEquals("fromB", cloneId(), "alphabetical, the last one wins");
    }

    @Test
    void includesAreReadWhereTheyAppearRelativeToTheIncludingFile() throws IOException {
        write("server.xml", """
                <server>
                  <httpSession cloneId="before"/>
                  <include location="conf/session.xml"/>
                </server>
                """);
        write("conf/session.xml", "<server><include location=\"deeper.xml\"/></server>");
        write("conf/deeper.xml", "<server><httpSession cloneId=\"included\"/></server>");
        assertEquals("included", cloneId());
        write("server.xml", """
                <server>
                  <include location="${server.config.dir}/conf/deeper.xml"/>
                  <httpSession cloneId="after"/>
                </server>
                """);
        assertEquals("after", cloneId());
    }

    @Test
    void variablesBootstrapPropertiesAndEnvironmentResolve() throws IOException {
        write("server.xml", """
                <server>
                  <variable name="route.prefix" value="ol"/>
                  <httpSession cloneId="${route.prefix}${node.number}"/>
                </server>
                """);
        write("bootstrap.properties", "node.number=7\n");
        assertEquals("ol7", cloneId());
        write("server.xml", "<server><httpSession cloneId=\"${env.NODE_ROUTE}\"/></server>");
        assertEquals("envroute", cloneId());
        write("server.xml", "<server><variable name=\"r\" defaultValue=\"dflt\"/><httpSession cloneId=\"${r}\"/></server>");
        assertEquals("dflt", cloneId());
        write("server.xml", "<server><httpSession cloneId=\"${nobody.knows}\"/></server>");
        assertNull(cloneId(), "an unresolved variable is no route, never the literal text");
    }

    // Hostile or broken configuration: refused or bounded, never a hang, an expansion or a file read.

    @Test
    void aDoctypeIsRefusedSoNoEntityIsExpandedOrExternalFileRead() throws IOException {
        write("secret.txt", "leaked");
        write("server.xml", """
                <?xml version="1.0"?>
                <!DOCTYPE server [<!ENTITY x SYSTEM "secret.txt">]>
                <server><httpSession cloneId="&x;"/></server>
                """);
        assertNull(cloneId());
        write("server.xml", """
                <?xml version="1.0"?>
                <!DOCTYPE server [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
                  <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
                <server><httpSession cloneId="&d;"/></server>
                """);
        assertNull(cloneId(), "entity expansion");
    }

    @Test
    void includeLoopsAndTooManyFilesEnd() throws IOException {
        write("server.xml", "<server><include location=\"server.xml\"/><include location=\"a.xml\"/>"
                + "<httpSession cloneId=\"loop\"/></server>");
        write("a.xml", "<server><include location=\"server.xml\"/></server>");
        assertEquals("loop", cloneId());
        for (int i = 0; i < LibertyServerConfig.MAX_FILES + 10; i++) {
            // each file sets its clone id, then includes the next, whose clone id comes later and wins
            write("chain/" + i + ".xml", "<server><httpSession cloneId=\"c" + i + "\"/>"
                    + "<include location=\"" + (i + 1) + ".xml\"/></server>");
        }
        write("server.xml", "<server><include location=\"chain/0.xml\"/></server>");
        assertEquals("c" + (LibertyServerConfig.MAX_FILES - 2), cloneId(),
                "the chain is cut after " + LibertyServerConfig.MAX_FILES + " files (server.xml is one)");
    }

    @Test
    void aFileBeyondTheSizeLimitIsSkipped() throws IOException {
        write("configDropins/defaults/a.xml", "<server><httpSession cloneId=\"small\"/></server>");
        String padding = "<!--" + "x".repeat((int) LibertyServerConfig.MAX_FILE_BYTES) + "-->";
        write("server.xml", "<server><httpSession cloneId=\"huge\"/>" + padding + "</server>");
        assertEquals("small", cloneId());
    }

    @Test
    void remoteIncludesAreNotFetched() throws IOException {
        write("server.xml", "<server><httpSession cloneId=\"local\"/>"
                + "<include location=\"http://127.0.0.1:1/evil.xml\"/></server>");
        assertEquals("local", cloneId());
    }
}
