package org.strait.internal;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Loads libstrait.so into the JVM once. Where it looks, in order:
 * <ol>
 * <li>the system property {@code strait.library} (absolute path; the strait
 *     launcher sets it to the library it already mapped, and the tests and
 *     benchmarks that need test natives to build/lib-testing/libstrait.so);</li>
 * <li>a libstrait.so already mapped into this process (found in
 *     /proc/self/maps), so the JVM binds to that very copy;</li>
 * <li>{@code java.library.path};</li>
 * <li>the jar resource {@code org/strait/native/linux-x86_64/libstrait.so},
 *     extracted to a temporary file;</li>
 * <li>a libstrait.so beside the jar that holds this class.</li>
 * </ol>
 * Loading a file that the process already mapped makes dlopen return the
 * same library; its JNI_OnLoad initializes the JNI layer once.
 */
public final class NativeLoader {
    private static final String LIB = "libstrait.so";
    private static final String RESOURCE = "org/strait/native/linux-x86_64/" + LIB;
    private static boolean loaded;
    private static boolean loading;
    private static String loadedFrom;

    private NativeLoader() {}

    /** Loads the library if not yet loaded. Thread-safe; throws UnsatisfiedLinkError on failure. */
    public static synchronized void load() {
        if (loaded || loading) return;
        // JNI_OnLoad looks up (and so initializes) org.strait.internal.Natives, whose
        // static initializer calls load() again on this thread: that nested
        // call must return at once (the monitor is re-entrant).
        loading = true;
        try {
            String path = locate();
            System.load(path);
            loadedFrom = path;
            loaded = true;
        } finally {
            loading = false;
        }
    }

    /** The absolute path the library was loaded from, or null before {@link #load()}. */
    public static synchronized String loadedFrom() {
        return loadedFrom;
    }

    private static String locate() {
        String prop = System.getProperty("strait.library");
        if (prop != null && !prop.isEmpty() && new File(prop).isFile())
            return new File(prop).getAbsolutePath();
        String mapped = mappedCopy();
        if (mapped != null) return mapped;
        String libPath = System.getProperty("java.library.path", "");
        for (String dir : libPath.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            File f = new File(dir, LIB);
            if (f.isFile()) return f.getAbsolutePath();
        }
        UnsatisfiedLinkError failure = new UnsatisfiedLinkError(
                "strait: " + LIB + " not found in strait.library, java.library.path, the jar or beside it");
        try (InputStream in = NativeLoader.class.getClassLoader() == null
                ? ClassLoader.getSystemResourceAsStream(RESOURCE)
                : NativeLoader.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in != null) {
                Path dir = Files.createTempDirectory("strait-native");
                Path out = dir.resolve(LIB);
                Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
                out.toFile().deleteOnExit();
                dir.toFile().deleteOnExit();
                return out.toAbsolutePath().toString();
            }
        } catch (IOException e) {
            failure.initCause(e);
        }
        try {
            Path jar = Paths.get(NativeLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path beside = (Files.isDirectory(jar) ? jar : jar.getParent()).resolve(LIB);
            if (Files.isRegularFile(beside)) return beside.toAbsolutePath().toString();
        } catch (URISyntaxException | RuntimeException e) {
            // no code source: nothing beside the jar to try
        }
        throw failure;
    }

    /** Path of a libstrait.so (or its versioned file) already mapped into
     *  this process, or null. */
    private static String mappedCopy() {
        try {
            List<String> lines = Files.readAllLines(Paths.get("/proc/self/maps"));
            for (String line : lines) {
                int slash = line.indexOf('/');
                if (slash < 0) continue;
                String path = line.substring(slash).trim();
                String name = path.substring(path.lastIndexOf('/') + 1);
                // the installed library maps as its real, versioned file
                // (libstrait.so.0.1.0), reached through libstrait.so.0
                if ((name.equals(LIB) || name.startsWith(LIB + ".")) && new File(path).isFile()) return path;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or no procfs: fall through to the other places
        }
        return null;
    }
}
