package io.loadwise.node.glassfish;

import io.loadwise.node.provision.WarRepackager;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds a WAR's {@code jdbc/TradeDB} resource-ref to the server resource of the same name. GlassFish 7
 * binds an unmapped DataSource resource-ref to its default DataSource ({@code jdbc/__default}, the
 * embedded Derby pool), not to a same-named resource, so a WAR meant for any container gets a
 * {@code WEB-INF/glassfish-web.xml} that says so.
 */
final class ResourceMapping {

    static final String DESCRIPTOR = "WEB-INF/glassfish-web.xml";
    private static final Logger LOG = LoggerFactory.getLogger(ResourceMapping.class);

    private ResourceMapping() {
    }

    /**
     * Returns {@code war} itself when it has its own glassfish-web.xml, otherwise a copy at
     * {@code target} with one mapping {@code jndiName} to the server resource {@code jndiName}.
     */
    static Path mapped(Path war, String jndiName, Path target) throws IOException {
        if (WarRepackager.contains(war, DESCRIPTOR)) {
            LOG.info("{} has its own {}; deploying it unchanged", war.getFileName(), DESCRIPTOR);
            return war;
        }
        return WarRepackager.withEntries(war, Map.of(DESCRIPTOR, descriptor(jndiName).getBytes(StandardCharsets.UTF_8)),
                target);
    }

    static String descriptor(String jndiName) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE glassfish-web-app PUBLIC "-//GlassFish.org//DTD GlassFish Application Server 3.1 Servlet 3.0//EN" \
                "http://glassfish.org/dtds/glassfish-web-app_3_0-1.dtd">
                <glassfish-web-app>
                  <resource-ref>
                    <res-ref-name>%1$s</res-ref-name>
                    <jndi-name>%1$s</jndi-name>
                  </resource-ref>
                </glassfish-web-app>
                """.formatted(jndiName);
    }
}
