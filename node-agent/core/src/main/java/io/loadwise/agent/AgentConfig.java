package io.loadwise.agent;

import io.loadwise.agent.os.OsSources;
import io.loadwise.wire.OrcaLoadReport;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;

/**
 * The agent's settings. Sources, later ones winning: built-in defaults, the properties file named by
 * {@value #CONFIG_FILE} (system property, {@code LOADWISE_AGENT_CONFIG} environment variable, or
 * context parameter), system properties, then the web application's context parameters. The same
 * properties may carry JMX mappings ({@code jmx.map.*}, see {@link io.loadwise.agent.jmx.JmxMappingParser}).
 */
public final class AgentConfig {

    public static final String CONFIG_FILE = "loadwise.agent.config";
    public static final String FULL_INTERVAL = "loadwise.agent.sample.full.ms";
    public static final String FAST_INTERVAL = "loadwise.agent.sample.fast.ms";
    public static final String HEADER_INTERVAL = "loadwise.agent.header.interval.ms";
    public static final String HEADER_FORM = "loadwise.agent.header.form";
    public static final String SECRET = "loadwise.agent.secret";
    public static final String OS_SOURCE = "loadwise.agent.os.source";
    public static final String JMX_ADAPTER = "loadwise.agent.jmx.adapter";
    public static final String JMX_MAPPINGS = "loadwise.agent.jmx.mappings";
    public static final String CAPACITY = "loadwise.agent.capacity";
    public static final String STAND_IN = "loadwise.agent.load.standin";
    public static final String READINGS_TRANSFORM = "loadwise.agent.readings.transform";

    private final Properties properties;

    private AgentConfig(Properties properties) {
        this.properties = properties;
        validate();
    }

    /** Settings from explicit properties only (tests, embedding). */
    public static AgentConfig of(Properties properties) {
        Properties copy = new Properties();
        copy.putAll(properties);
        return new AgentConfig(copy);
    }

    /**
     * Settings for a web application.
     *
     * @param contextParameters the application's context parameters (may be empty)
     * @throws IllegalArgumentException when the named configuration file cannot be read or a value is invalid
     */
    public static AgentConfig load(Map<String, String> contextParameters) {
        Properties merged = new Properties();
        String file = firstNonBlank(contextParameters.get(CONFIG_FILE), System.getProperty(CONFIG_FILE),
                System.getenv("LOADWISE_AGENT_CONFIG"));
        if (file != null) {
            merged.putAll(readFile(Path.of(file), CONFIG_FILE));
        }
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("loadwise.agent.") || name.startsWith("jmx.map.") || name.startsWith("jmx.adapter.")) {
                merged.setProperty(name, System.getProperty(name));
            }
        }
        merged.putAll(contextParameters);
        return new AgentConfig(merged);
    }

    /** Reads a properties file (UTF-8); {@code setting} names the key that pointed at it, for errors. */
    public static Properties readFile(Path path, String setting) {
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            p.load(reader);
        } catch (IOException e) {
            throw new IllegalArgumentException("Loadwise agent: cannot read " + path + " (from " + setting + "): " + e, e);
        }
        return p;
    }

    private static String firstNonBlank(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v.strip();
            }
        }
        return null;
    }

    private void validate() {
        if (fullIntervalMillis() <= 0) {
            throw new IllegalArgumentException(FULL_INTERVAL + " must be positive, got " + fullIntervalMillis());
        }
        if (fastIntervalMillis() < 0) {
            throw new IllegalArgumentException(FAST_INTERVAL + " must be 0 (off) or positive, got " + fastIntervalMillis());
        }
        if (headerIntervalMillis() < -1) {
            throw new IllegalArgumentException(HEADER_INTERVAL + " must be -1 (never), 0 (every response) "
                    + "or positive, got " + headerIntervalMillis());
        }
        osMode();
        headerForm();
        if (capacity() < 0) {
            throw new IllegalArgumentException(CAPACITY + " must be 0 (derive it) or a positive number of "
                    + "concurrent requests, got " + capacity());
        }
        standIn();
        readingsTransform();
    }

    /**
     * The readings' transform: the class named by {@value #READINGS_TRANSFORM}, a {@code
     * UnaryOperator<Map<String, Double>>} with a public no-argument constructor, loaded by the web
     * application's class loader and applied to every sample before it is published; identity when
     * unset. It exists for experiments on the agent's effect (the benchmarks' deliberately noisy readings,
     * docs/agent.md); a production node leaves it unset.
     *
     * @throws IllegalArgumentException naming the setting when the class cannot be loaded, is not such an
     *     operator, or cannot be made
     */
    @SuppressWarnings("unchecked")
    public UnaryOperator<Map<String, Double>> readingsTransform() {
        String name = properties.getProperty(READINGS_TRANSFORM, "").strip();
        if (name.isEmpty()) {
            return UnaryOperator.identity();
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            Class<?> type = Class.forName(name, true, loader != null ? loader : AgentConfig.class.getClassLoader());
            if (!UnaryOperator.class.isAssignableFrom(type)) {
                throw new IllegalArgumentException(READINGS_TRANSFORM + ": " + name
                        + " is not a java.util.function.UnaryOperator");
            }
            return (UnaryOperator<Map<String, Double>>) type.getConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalArgumentException(READINGS_TRANSFORM + ": cannot make " + name + ": " + e, e);
        }
    }

    public long fullIntervalMillis() {
        return longValue(FULL_INTERVAL, 1000);
    }

    public long fastIntervalMillis() {
        return longValue(FAST_INTERVAL, 100);
    }

    /** Minimum time between two responses carrying the header: 0 = every response, -1 = never. */
    public long headerIntervalMillis() {
        return longValue(HEADER_INTERVAL, 100);
    }

    /**
     * The form of the {@code endpoint-load-metrics} value: {@code text} (the default, readable in a trace),
     * {@code json} or {@code bin} (base64 protobuf, the smallest); Envoy and the dispatcher read all three.
     */
    public OrcaLoadReport.Form headerForm() {
        String v = properties.getProperty(HEADER_FORM, "text").strip().toUpperCase(Locale.ROOT);
        try {
            return OrcaLoadReport.Form.valueOf(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(HEADER_FORM + " must be text, json or bin, got '"
                    + properties.getProperty(HEADER_FORM) + "'", e);
        }
    }

    /** The shared secret protecting the endpoints, or {@code null} when they are open. */
    public String secret() {
        String s = properties.getProperty(SECRET, "").strip();
        return s.isEmpty() ? null : s;
    }

    public OsSources.Mode osMode() {
        String v = properties.getProperty(OS_SOURCE, "auto").strip().toUpperCase(Locale.ROOT);
        try {
            return OsSources.Mode.valueOf(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(OS_SOURCE + " must be auto, sigar or java, got '" + v + "'", e);
        }
    }

    /**
     * How many requests the node should run at once, the base of the filter's busy and queue figures;
     * 0 (the default) takes the server's maximum worker threads, or 16 per processor.
     */
    public int capacity() {
        long v = longValue(CAPACITY, 0, "a whole number of concurrent requests");
        if (v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(CAPACITY + " is too large: " + v);
        }
        return (int) v;
    }

    /** Whether the filter's figures stand in for the queue and busy inputs the server does not report. */
    public boolean standIn() {
        String v = properties.getProperty(STAND_IN, "true").strip().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(STAND_IN + " must be true or false, got '" + v + "'");
        };
    }

    /** {@code auto}, {@code none} or a built-in adapter name. */
    public String jmxAdapter() {
        return properties.getProperty(JMX_ADAPTER, "auto").strip().toLowerCase(Locale.ROOT);
    }

    /** The operator's mapping file, or {@code null}. */
    public Path jmxMappingsFile() {
        String v = properties.getProperty(JMX_MAPPINGS, "").strip();
        return v.isEmpty() ? null : Path.of(v);
    }

    /** All settings (including inline {@code jmx.map.*} mappings). */
    public Properties properties() {
        Properties copy = new Properties();
        copy.putAll(properties);
        return copy;
    }

    private long longValue(String key, long defaultValue) {
        return longValue(key, defaultValue, "a whole number of milliseconds");
    }

    private long longValue(String key, long defaultValue, String what) {
        String v = properties.getProperty(key);
        if (v == null || v.isBlank()) {
            return defaultValue;
        }
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be " + what + ", got '" + v + "'", e);
        }
    }
}
