package io.loadwise.agent.os;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import org.hyperic.sigar.Sigar;

/**
 * Loads SIGAR from the native libraries shipped inside the agent JAR. The library for this os.name and
 * os.arch is copied to a fresh temporary directory, so two web applications that both carry the agent
 * each load their own copy (the JVM refuses to bind one library file to two class loaders).
 */
public final class SigarLoader {

    static final String NATIVE_DIR = "sigar-native/";
    private static final String PATH_PROPERTY = "org.hyperic.sigar.path";
    private static final String VERSION = "1.6.4";

    private SigarLoader() {
    }

    /**
     * The file name of the bundled library for a platform, or {@code null} when none is bundled.
     * SIGAR 1.6.4 from Maven Central ships Linux x86/amd64, Solaris amd64 and macOS x86_64 natives.
     */
    static String libraryName(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        boolean amd64 = arch.equals("amd64") || arch.equals("x86_64");
        boolean x86 = arch.equals("x86") || arch.matches("i[3-6]86");
        if (os.startsWith("linux") && amd64) {
            return "libsigar-amd64-linux-" + VERSION + ".so";
        }
        if (os.startsWith("linux") && x86) {
            return "libsigar-x86-linux-" + VERSION + ".so";
        }
        if ((os.startsWith("sunos") || os.startsWith("solaris")) && amd64) {
            return "libsigar-amd64-solaris-" + VERSION + ".so";
        }
        if (os.startsWith("mac") && amd64) {
            return "libsigar-universal64-macosx-" + VERSION + ".dylib";
        }
        return null;
    }

    /**
     * Loads and smoke-tests SIGAR for the running platform.
     *
     * @throws SigarUnavailableException when no library is bundled for this platform or it cannot load
     */
    public static Sigar load() throws SigarUnavailableException {
        String osName = System.getProperty("os.name");
        String osArch = System.getProperty("os.arch");
        String library = libraryName(osName, osArch);
        if (library == null) {
            throw new SigarUnavailableException("no SIGAR native library bundled for " + osName + "/" + osArch);
        }
        Path dir = extract(library);
        Sigar sigar;
        String previous = System.getProperty(PATH_PROPERTY);
        try {
            // SIGAR's own loader looks in this directory; set it only while the Sigar class initialises.
            System.setProperty(PATH_PROPERTY, dir.toString());
            Sigar.load();
            sigar = new Sigar();
            sigar.getMem(); // proves the native side answers
        } catch (Exception | LinkageError e) {
            throw new SigarUnavailableException("SIGAR library " + library + " failed to load: " + e, e);
        } finally {
            if (previous == null) {
                System.clearProperty(PATH_PROPERTY);
            } else {
                System.setProperty(PATH_PROPERTY, previous);
            }
        }
        return sigar;
    }

    private static Path extract(String library) throws SigarUnavailableException {
        try (InputStream in = SigarLoader.class.getResourceAsStream(NATIVE_DIR + library)) {
            if (in == null) {
                throw new SigarUnavailableException("SIGAR library " + library + " is missing from the agent JAR");
            }
            Path dir = Files.createTempDirectory("loadwise-sigar");
            dir.toFile().deleteOnExit();
            Path file = dir.resolve(library);
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            file.toFile().deleteOnExit();
            // SIGAR's loader expects the versioned name only when its classes sit in sigar-1.6.4.jar;
            // shaded into the agent JAR it asks for the plain name, so provide both.
            Path plain = dir.resolve(library.replace("-" + VERSION, ""));
            Files.copy(file, plain, StandardCopyOption.REPLACE_EXISTING);
            plain.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new SigarUnavailableException("cannot extract SIGAR library " + library + ": " + e, e);
        }
    }
}
