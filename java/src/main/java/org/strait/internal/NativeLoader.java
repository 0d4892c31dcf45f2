package org.strait.internal;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
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
 *     extracted to a temporary file that is deleted as soon as it is loaded;</li>
 * <li>a libstrait.so beside the jar that holds this class.</li>
 * </ol>
 * Loading a file that the process already mapped makes dlopen return the
 * same library; its JNI_OnLoad initializes the JNI layer once.
 *
 * <p><b>Nothing left in the temporary folder.</b> A library must be a file
 * to be {@code System.load}ed (dlopen opens it by name; Java has no
 * {@code memfd_create} or {@code O_TMPFILE}). So the copy is made as a new
 * file in {@code java.io.tmpdir}, {@code strait-native-<random>.so}, under an
 * exclusive lock; its descriptor is found in {@code /proc/self/fd}, the file
 * is deleted at once, still empty, and the library is written through the
 * descriptor (kept open for the JVM's life: another class loader's
 * NativeLoader finds the library through it, as it found the file before)
 * and loaded by the descriptor's name, {@code /proc/self/fd/N}
 * (which System.load accepts: its name exists, and dlopen opens the deleted
 * file through it). The file is on disk for the few microseconds between
 * its creation and its deletion, never with the library in it. Linux keeps
 * the mapping; the JVM needs no name afterwards (JNI lookups go through the
 * dlopen handle). Without procfs the copy is written, loaded by its name and
 * deleted right after {@code System.load} returns. A JVM killed while the
 * file exists leaves it; the next load anywhere removes every such file no
 * process holds locked (a lock dies with its process, even on SIGKILL;
 * dlopen's own close of the file drops it too, POSIX locks being the
 * process's, but by then the library is mapped and removing the file harms
 * nobody). A loader that finds its new file gone once it holds the lock
 * (removed by another JVM's sweep in the moment between the creation and the
 * lock) makes another.
 *
 * <p>Older versions extracted into a directory {@code strait-native<digits>}
 * and asked {@code deleteOnExit} to remove it, which it never did (the
 * directory was registered after the file, and is deleted first, while the
 * file is still in it), and a killed JVM kept both. Such a directory is
 * removed when it was last changed over a minute ago (an older JVM extracts
 * and loads within milliseconds) and no process of this user maps a file in
 * it (read from {@code /proc/PID/maps}; a process of this user whose maps cannot be
 * read and whose command line names java keeps every such directory). Removing the
 * file of a library a process already loaded would not harm its mapping anyway; the
 * minute protects an older JVM between its extraction and its load.
 */
public final class NativeLoader {
    private static final String LIB = "libstrait.so";
    private static final String RESOURCE = "org/strait/native/linux-x86_64/" + LIB;
    /** The names of extracted copies: {@code strait-native-<random>.so}. */
    static final String PREFIX = "strait-native-";
    static final String SUFFIX = ".so";
    private static final long OLD_GRACE_MS = 60_000;
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
            loadedFrom = locateAndLoad();
            loaded = true;
        } finally {
            loading = false;
        }
    }

    /**
     * The absolute path the library was loaded from, or null before {@link #load()}. For a copy
     * extracted from the jar, the name the copy had: it no longer exists (see the class comment).
     */
    public static synchronized String loadedFrom() {
        return loadedFrom;
    }

    private static String locateAndLoad() {
        String prop = System.getProperty("strait.library");
        if (prop != null && !prop.isEmpty() && new File(prop).isFile())
            return loadFile(new File(prop).getAbsolutePath());
        String mapped = mappedCopy();
        if (mapped != null) return loadFile(mapped);
        String libPath = System.getProperty("java.library.path", "");
        for (String dir : libPath.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            File f = new File(dir, LIB);
            if (f.isFile()) return loadFile(f.getAbsolutePath());
        }
        UnsatisfiedLinkError failure = new UnsatisfiedLinkError(
                "strait: " + LIB + " not found in strait.library, java.library.path, the jar or beside it");
        byte[] lib = null;
        try (InputStream in = NativeLoader.class.getClassLoader() == null
                ? ClassLoader.getSystemResourceAsStream(RESOURCE)
                : NativeLoader.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in != null) lib = in.readAllBytes();
        } catch (IOException e) {
            failure.initCause(e);
        }
        if (lib != null) {
            Path tmp = Paths.get(System.getProperty("java.io.tmpdir", "/tmp")).toAbsolutePath();
            try {
                return extractAndLoad(lib, tmp);
            } catch (IOException e) {
                UnsatisfiedLinkError u = new UnsatisfiedLinkError(
                        "strait: cannot extract " + LIB + " into " + tmp + ": " + e);
                u.initCause(e);
                throw u;
            } finally {
                sweep(tmp);
            }
        }
        try {
            Path jar = Paths.get(NativeLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path beside = (Files.isDirectory(jar) ? jar : jar.getParent()).resolve(LIB);
            if (Files.isRegularFile(beside)) return loadFile(beside.toAbsolutePath().toString());
        } catch (URISyntaxException | RuntimeException e) {
            // no code source: nothing beside the jar to try
        }
        throw failure;
    }

    private static String loadFile(String path) {
        System.load(path);
        return path;
    }

    /**
     * Writes lib to a new file in dir under an exclusive lock, deletes it and loads it through
     * its descriptor, or loads it by name and then deletes it (see the class comment). Returns
     * the path the copy had.
     */
    static String extractAndLoad(byte[] lib, Path dir) throws IOException {
        dir = dir.toRealPath();   // the name /proc/self/fd shows for the copy
        java.util.Random random = java.util.concurrent.ThreadLocalRandom.current();
        FileAttribute<?> owner = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
        for (int attempt = 0; ; attempt++) {
            Path file = dir.resolve(PREFIX + Long.toUnsignedString(random.nextLong(), 36) + SUFFIX);
            FileChannel ch = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), owner);
            boolean keep = false;
            try (FileLock lock = ch.lock()) {
                // another JVM's sweep may have removed the file before the lock was ours
                if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                    if (attempt < 3) continue;
                    throw new IOException(file + " was removed while it was being made");
                }
                String fd = descriptorPath(file);
                if (fd != null) Files.delete(file);      // from here on nothing is on disk
                ByteBuffer b = ByteBuffer.wrap(lib);
                while (b.hasRemaining()) ch.write(b);
                System.load(fd != null ? fd : file.toString());
                // the descriptor stays open for the JVM's life: another class loader's
                // NativeLoader finds the library through it (mappedCopy), as it found the file
                keep = fd != null;
                if (keep) copy = ch;
                return file.toString();
            } finally {
                if (!keep) ch.close();
                Files.deleteIfExists(file);
            }
        }
    }

    /** The descriptor of the deleted copy this JVM loaded (never closed), or null. */
    private static FileChannel copy;

    /**
     * {@code /proc/self/fd/N} of the one descriptor of this process open on file, when System.load
     * would accept it (it checks that the name exists), else null (no procfs).
     */
    private static String descriptorPath(Path file) {
        return descriptorNamed(file.toString());
    }

    /** The same for the name /proc/self/fd shows (a deleted file's ends with " (deleted)"). */
    private static String descriptorNamed(String name) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Paths.get("/proc/self/fd"))) {
            for (Path p : ds) {
                try {
                    if (Files.readSymbolicLink(p).toString().equals(name)) return new File(p.toString()).exists() ? p.toString() : null;
                } catch (IOException | RuntimeException e) {
                    // closed meanwhile, or no link
                }
            }
        } catch (IOException | RuntimeException e) {
            // no procfs
        }
        return null;
    }

    /**
     * Removes what JVMs killed while extracting left in dir: copies no process holds locked, and
     * directories of older versions that no process uses (see the class comment). Never throws.
     */
    static void sweep(Path dir) {
        List<Path> oldDirs = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (!name.startsWith("strait-native")) continue;
                if (isCopyName(name)) removeUnlocked(p);
                else if (isOldDirName(name)) oldDirs.add(p);
            }
        } catch (IOException | RuntimeException e) {
            return;
        }
        if (!oldDirs.isEmpty()) removeOldDirs(oldDirs);
    }

    /** {@code strait-native-<1 to 13 of [0-9a-z]>.so}: a copy extracted by this version. */
    static boolean isCopyName(String name) {
        int from = PREFIX.length(), to = name.length() - SUFFIX.length();
        if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX) || to - from < 1 || to - from > 13) return false;
        for (int i = from; i < to; i++) {
            char c = name.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z')) return false;
        }
        return true;
    }

    /** {@code strait-native<1 to 20 digits>}: Files.createTempDirectory("strait-native") of older versions. */
    static boolean isOldDirName(String name) {
        int from = "strait-native".length();
        if (name.length() - from < 1 || name.length() - from > 20) return false;
        for (int i = from; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') return false;
        }
        return true;
    }

    /** Deletes copy p unless a live process holds its lock. */
    private static void removeUnlocked(Path p) {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            FileLock lock = ch.tryLock();
            if (lock == null) return;                     // its loader is alive
            try {
                Files.deleteIfExists(p);
            } finally {
                lock.release();
            }
        } catch (OverlappingFileLockException e) {
            // this JVM holds it (another class loader's load in progress)
        } catch (IOException | RuntimeException e) {
            // gone already, another user's, not a regular file: leave it
        }
    }

    /** Deletes the directories of older versions that are old enough and mapped by no process. */
    private static void removeOldDirs(List<Path> dirs) {
        long now = System.currentTimeMillis();
        List<Path> stale = new ArrayList<>();
        for (Path d : dirs) {
            try {
                BasicFileAttributes a = Files.readAttributes(d, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (a.isDirectory() && now - a.lastModifiedTime().toMillis() > OLD_GRACE_MS) stale.add(d);
            } catch (IOException | RuntimeException e) {
                // gone, or not ours to look at
            }
        }
        if (stale.isEmpty()) return;
        List<String> inUse = mappedPaths();
        if (inUse == null) return;                          // cannot tell who uses them: keep all
        for (Path d : stale) {
            String prefix = d.toString() + "/";
            boolean used = false;
            for (String m : inUse) if (m.startsWith(prefix)) { used = true; break; }
            if (used) continue;
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(d)) {
                for (Path f : ds) {
                    if (!f.getFileName().toString().equals(LIB)) throw new IOException("not strait's: " + f);
                }
            } catch (IOException | RuntimeException e) {
                continue;                                   // something else lives there: leave it
            }
            try {
                Files.deleteIfExists(d.resolve(LIB));
                Files.deleteIfExists(d);
            } catch (IOException | RuntimeException e) {
                // another user's, or changed meanwhile
            }
        }
    }

    /**
     * The files mapped by the processes of this user (/proc/PID/maps), or null when one that
     * may be a JVM cannot be read (or there is no procfs).
     */
    private static List<String> mappedPaths() {
        List<String> out = new ArrayList<>();
        Object me;
        try {
            me = Files.getAttribute(Paths.get("/proc/self"), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return null;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Paths.get("/proc"))) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (name.isEmpty() || !Character.isDigit(name.charAt(0))) continue;
                try {
                    if (!me.equals(Files.getAttribute(p, "unix:uid"))) continue;
                    // bytes as Latin-1: any file name reads, and the ASCII prefix compares
                    String maps = new String(Files.readAllBytes(p.resolve("maps")), StandardCharsets.ISO_8859_1);
                    for (int i = 0, n = maps.length(); i < n; ) {
                        int eol = maps.indexOf('\n', i);
                        if (eol < 0) eol = n;
                        int slash = maps.indexOf('/', i);
                        if (slash >= 0 && slash < eol) out.add(maps.substring(slash, eol));
                        i = eol + 1;
                    }
                } catch (IOException | RuntimeException e) {
                    // a process whose maps are closed to us (not dumpable, no
                    // ptrace access): only a JVM could use the directory
                    if (Files.exists(p) && mayBeJvm(p)) return null;
                    // else the process ended meanwhile, or is no JVM
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return out;
    }

    /**
     * Whether process p (/proc/PID) may be a JVM: its command line (readable where its maps
     * are not) names java, or cannot be read.
     */
    private static boolean mayBeJvm(Path p) {
        try {
            String cmd = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.ISO_8859_1);
            return cmd.toLowerCase(java.util.Locale.ROOT).contains("java");
        } catch (IOException | RuntimeException e) {
            return Files.exists(p);
        }
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
                // a copy a NativeLoader of this JVM (another class loader's) extracted and
                // deleted: loaded again through the descriptor it keeps open
                if (name.startsWith(PREFIX) && path.endsWith(SUFFIX + " (deleted)")) {
                    String fd = descriptorNamed(path);
                    if (fd != null) return fd;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or no procfs: fall through to the other places
        }
        return null;
    }
}
