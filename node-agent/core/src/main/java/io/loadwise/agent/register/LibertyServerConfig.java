package io.loadwise.agent.register;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The session route of an Open Liberty (or WebSphere Liberty) server, {@code <httpSession cloneId="..."/>},
 * read from the server's own configuration, since Liberty has no MBean that tells it. Reads what Liberty reads,
 * in its order, the last value winning: {@code configDropins/defaults/*.xml}, {@code server.xml} with its
 * {@code <include location>}s where they appear, then {@code configDropins/overrides/*.xml}. A {@code ${name}}
 * in the clone id is resolved from the {@code <variable>}s, {@code bootstrap.properties}, system properties and,
 * for {@code ${env.NAME}}, the environment.
 *
 * <p>Bounded: at most {@value #MAX_FILES} files of at most {@value #MAX_FILE_BYTES} bytes each, a file included
 * twice is read once, and documents with a DOCTYPE (entities) are refused. A file that cannot be read or parsed
 * is skipped: the route is then whatever the other files say, or {@code null}.
 */
final class LibertyServerConfig {

    static final int MAX_FILES = 64;
    static final long MAX_FILE_BYTES = 1 << 20;
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]+)}");

    private final Path serverDir;
    private final Set<Path> read = new HashSet<>();
    private final Map<String, String> variables = new HashMap<>();
    private final Map<String, String> environment;
    private String cloneId;

    private LibertyServerConfig(Path serverDir, Map<String, String> environment) {
        this.serverDir = serverDir;
        this.environment = environment;
    }

    /** The resolved clone id in {@code serverDir}'s configuration, or {@code null} when none is set. */
    static String cloneId(Path serverDir) {
        return cloneId(serverDir, System.getenv());
    }

    static String cloneId(Path serverDir, Map<String, String> environment) {
        LibertyServerConfig config = new LibertyServerConfig(serverDir, environment);
        config.readBootstrapProperties();
        config.readDropins("defaults");
        config.read(serverDir.resolve("server.xml"));
        config.readDropins("overrides");
        return config.resolve(config.cloneId);
    }

    private void readBootstrapProperties() {
        Path file = serverDir.resolve("bootstrap.properties");
        byte[] bytes = bounded(file);
        if (bytes == null) {
            return;
        }
        Properties p = new Properties();
        try (InputStream in = new ByteArrayInputStream(bytes)) {
            p.load(in);
        } catch (IOException | IllegalArgumentException e) {
            return;
        }
        p.stringPropertyNames().forEach(name -> variables.putIfAbsent(name, p.getProperty(name)));
    }

    private void readDropins(String kind) {
        Path dir = serverDir.resolve("configDropins").resolve(kind);
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*.xml")) {
            for (Path file : stream) {
                if (files.size() >= MAX_FILES) {
                    break;
                }
                files.add(file);
            }
        } catch (IOException e) {
            return;
        }
        files.sort(null); // Liberty reads them in alphabetical order
        files.forEach(this::read);
    }

    private void read(Path file) {
        Path normal = file.toAbsolutePath().normalize();
        if (read.size() >= MAX_FILES || !read.add(normal)) {
            return;
        }
        byte[] bytes = bounded(normal);
        if (bytes == null) {
            return;
        }
        Element root;
        try {
            root = parser().parse(new ByteArrayInputStream(bytes)).getDocumentElement();
        } catch (SAXException | IOException | ParserConfigurationException e) {
            return;
        }
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element element)) {
                continue;
            }
            switch (element.getTagName()) {
                case "httpSession" -> {
                    if (element.hasAttribute("cloneId")) {
                        cloneId = element.getAttribute("cloneId").strip();
                    }
                }
                case "variable" -> {
                    String name = element.getAttribute("name");
                    if (!name.isEmpty() && element.hasAttribute("value")) {
                        variables.put(name, element.getAttribute("value"));
                    } else if (!name.isEmpty() && element.hasAttribute("defaultValue")) {
                        variables.putIfAbsent(name, element.getAttribute("defaultValue"));
                    }
                }
                case "include" -> {
                    String location = resolve(element.getAttribute("location"));
                    if (location != null && !location.isEmpty() && !location.contains("://")) {
                        Path target = Path.of(location);
                        read(target.isAbsolute() ? target : normal.getParent().resolve(target));
                    }
                }
                default -> {
                    // other configuration: not the route
                }
            }
        }
    }

    /** {@code value} with its {@code ${...}} resolved; {@code null} when one of them is unknown. */
    private String resolve(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String current = value;
        for (int depth = 0; depth < 8 && current.contains("${"); depth++) {
            Matcher m = VARIABLE.matcher(current);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                String replacement = lookup(m.group(1));
                if (replacement == null) {
                    return null;
                }
                m.appendReplacement(out, Matcher.quoteReplacement(replacement));
            }
            m.appendTail(out);
            current = out.toString();
        }
        return current.contains("${") || current.isBlank() ? null : current.strip();
    }

    private String lookup(String name) {
        if (name.startsWith("env.")) {
            return environment.get(name.substring(4));
        }
        if (name.equals("server.config.dir")) {
            return serverDir.toString() + "/";
        }
        String v = variables.get(name);
        return v != null ? v : System.getProperty(name);
    }

    private static byte[] bounded(Path file) {
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > MAX_FILE_BYTES) {
                return null;
            }
            try (InputStream in = Files.newInputStream(file)) {
                byte[] bytes = in.readNBytes((int) MAX_FILE_BYTES + 1);
                return bytes.length > MAX_FILE_BYTES ? null : bytes;
            }
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    private static DocumentBuilder parser() throws ParserConfigurationException {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        // A configuration file is not trusted to expand entities or reach other files through the parser.
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        factory.setXIncludeAware(false);
        factory.setExpandEntityReferences(false);
        factory.setNamespaceAware(false);
        DocumentBuilder builder = factory.newDocumentBuilder();
        builder.setErrorHandler(new DefaultHandler()); // a fatal error throws; nothing goes to stderr
        return builder;
    }
}
