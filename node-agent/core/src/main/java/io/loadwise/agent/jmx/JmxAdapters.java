package io.loadwise.agent.jmx;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/** The built-in adapters, shipped as mapping files next to this class, in detection order. */
public final class JmxAdapters {

    /** GlassFish first: its web container also registers some Catalina-style MBeans; Tomcat, whose Engine pattern is the widest, last. */
    public static final List<String> BUILT_IN = List.of("glassfish", "liberty", "wildfly", "tomcat");

    private JmxAdapters() {
    }

    public static List<JmxAdapter> builtIn() {
        List<JmxAdapter> adapters = new ArrayList<>();
        for (String name : BUILT_IN) {
            adapters.add(builtIn(name));
        }
        return adapters;
    }

    /**
     * @throws InvalidMappingException when there is no built-in adapter of that name
     */
    public static JmxAdapter builtIn(String name) {
        String file = name.toLowerCase(Locale.ROOT) + ".properties";
        try (InputStream in = JmxAdapters.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new InvalidMappingException("No built-in JMX adapter '" + name + "' (built in: " + BUILT_IN + ")");
            }
            Properties p = new Properties();
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            return JmxMappingParser.parse(p, "built-in " + file);
        } catch (IOException e) {
            throw new InvalidMappingException("Cannot read built-in JMX adapter " + file + ": " + e, e);
        }
    }
}
