package org.strait;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strait.internal.NativeLoader;
import org.strait.testing.LoaderChild;

/**
 * The library comes from the jar when nothing else provides it, and a JVM
 * that loads it that way leaves nothing in its temporary folder: on a
 * normal exit, killed with SIGKILL after the load or while running JS, and,
 * once the next JVM loads strait, killed at any moment (a copy left by a
 * kill during the extraction is removed then, unless a live process holds
 * it). Directories of older versions are removed when no live process uses
 * them. Each JVM here is a child (org.strait.testing.LoaderChild) with its
 * own java.io.tmpdir.
 */
class NativeLoaderTest {
    @Test
    void libraryLoadsFromTheJar() {
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            assertEquals(Integer.valueOf(2), rt.eval("1 + 1"));
        }
        String from = NativeLoader.loadedFrom();
        assertNotNull(from);
        assertTrue(new File(from).isAbsolute(), from);
        String expected = System.getProperty("strait.test.expectLoadedFrom");
        if ("jar".equals(expected)) {
            String name = new File(from).getName();
            assertTrue(name.startsWith("strait-native-") && name.endsWith(".so"), "extracted from the jar, got " + from);
            assertFalse(new File(from).exists(), "the extracted copy is deleted once loaded: " + from);
            // the process maps the deleted copy
            try {
                String maps = Files.readString(Paths.get("/proc/self/maps"), StandardCharsets.ISO_8859_1);
                assertTrue(maps.contains(from + " (deleted)"), "mapped from the deleted copy " + from);
            } catch (IOException e) {
                fail(e);
            }
        } else {
            assertTrue(from.endsWith(".so") || from.contains("/libstrait.so"), from);
        }
    }

    @Test
    void loadIsIdempotent() {
        NativeLoader.load();
        String first = NativeLoader.loadedFrom();
        NativeLoader.load();
        assertEquals(first, NativeLoader.loadedFrom());
    }

    // ---- child JVMs --------------------------------------------------------

    /** strait.jar (holding the library) and the test classes, or a skipped test. */
    private static String childClassPath() throws Exception {
        Path jar = Paths.get(JsRuntime.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assumeTrue(Files.isRegularFile(jar), "strait's classes come from a jar: " + jar);
        try (ZipFile z = new ZipFile(jar.toFile())) {
            assumeTrue(z.getEntry("org/strait/native/linux-x86_64/libstrait.so") != null, "the jar holds the library");
        }
        Path tests = Paths.get(LoaderChild.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return tests + File.pathSeparator + jar;
    }

    /** A started child with its output lines in lines. */
    private static final class Child {
        final Process p;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        Child(Path tmp, String... args) throws Exception {
            List<String> cmd = new ArrayList<>(List.of(
                    Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:-UsePerfData", "-Djava.io.tmpdir=" + tmp, "-cp", childClassPath(),
                    LoaderChild.class.getName()));
            cmd.addAll(List.of(args));
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            Thread t = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) lines.add(l);
                } catch (IOException e) {
                    lines.add("read failed: " + e);
                }
            });
            t.setDaemon(true);
            t.start();
        }

        /** Waits for a line starting with prefix (other lines are kept in seen). */
        String await(String prefix) throws InterruptedException {
            List<String> seen = new ArrayList<>();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < end) {
                String l = lines.poll(100, TimeUnit.MILLISECONDS);
                if (l == null) {
                    if (!p.isAlive() && lines.isEmpty()) break;
                    continue;
                }
                if (l.startsWith(prefix)) return l;
                seen.add(l);
            }
            fail("no line '" + prefix + "' from the child (exit " + (p.isAlive() ? "-" : p.exitValue()) + "): " + seen);
            return null;
        }

        void kill() throws InterruptedException {
            p.destroyForcibly();          // SIGKILL on Linux
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(137, p.exitValue(), "killed by SIGKILL");
        }

        /** Kills it unless it exited by itself first (then with status 0). */
        void killOrExited() throws InterruptedException {
            p.destroyForcibly();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertTrue(p.exitValue() == 137 || p.exitValue() == 0, () -> "exit status " + p.exitValue() + ", " + lines);
        }

        void exits() throws InterruptedException {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), () -> "exit status; output " + lines);
        }
    }

    private static List<String> contents(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    /** A normal run: loads strait from the jar, into tmp, and exits. */
    private static void normalRun(Path tmp) throws Exception {
        Child c = new Child(tmp, "exit");
        String line = c.await("loaded ");
        assertTrue(line.startsWith("loaded " + tmp + "/strait-native") && line.endsWith(" 2"), "extracted into tmp: " + line);
        c.exits();
    }

    @Test
    void aNormalExitLeavesNothing(@TempDir Path tmp) throws Exception {
        normalRun(tmp);
        assertEquals(List.of(), contents(tmp));
    }

    @Test
    void sigkillAfterTheLoadLeavesNothing(@TempDir Path tmp) throws Exception {
        Child c = new Child(tmp, "wait");
        c.await("loaded ");
        assertEquals(List.of(), contents(tmp), "deleted as soon as it is loaded");
        c.kill();
        assertEquals(List.of(), contents(tmp));
    }

    @Test
    void sigkillWhileRunningJsLeavesNothing(@TempDir Path tmp) throws Exception {
        Child c = new Child(tmp, "run");
        c.await("loaded ");
        Thread.sleep(300);
        assertTrue(c.p.isAlive());
        c.kill();
        assertEquals(List.of(), contents(tmp));
    }

    /**
     * Killed at moments from the start of the JVM on (before, during and after the
     * extraction): at most a copy of the library remains, and the next JVM that loads
     * strait removes it.
     */
    @Test
    void sigkillAtAnyMomentLeavesNothingOnceTheNextJvmLoads(@TempDir Path tmp) throws Exception {
        for (int ms : new int[] {0, 40, 80, 120, 160, 200, 260, 320, 400, 500}) {
            Child c = new Child(tmp, "exit");
            Thread.sleep(ms);
            c.killOrExited();
            for (String name : contents(tmp))
                assertTrue(name.matches("strait-native-[0-9a-z]+\\.so"), "after a kill at " + ms + " ms: " + name);
        }
        normalRun(tmp);
        assertEquals(List.of(), contents(tmp));
    }

    /**
     * A copy whose loader is alive (it holds the copy's lock, as a loader does from the
     * creation of the file to its load) survives another JVM's load; once that loader is
     * killed, the next load removes it.
     */
    @Test
    void aCopyALiveLoaderHoldsIsKeptAndRemovedOnceItIsKilled(@TempDir Path tmp) throws Exception {
        Path copy = tmp.resolve("strait-native-0livecopy.so");
        Child locker = new Child(tmp, "lock", copy.toString());
        locker.await("locked");
        normalRun(tmp);
        assertEquals(List.of(copy.getFileName().toString()), contents(tmp), "a live loader's copy is kept");
        locker.kill();
        assertTrue(Files.exists(copy), "a killed loader leaves its copy");
        normalRun(tmp);
        assertEquals(List.of(), contents(tmp));
    }

    /**
     * Directories older versions left (strait-native<digits>, with or without the library)
     * are removed when they were last changed over a minute ago and no live process maps a
     * file in them; a young one, one this JVM maps, and one holding anything else are kept.
     */
    @Test
    void olderVersionsDirectoriesAreRemovedWhenNoLiveProcessUsesThem(@TempDir Path tmp) throws Exception {
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 5 * 60_000);
        Path stale = oldDir(tmp, "strait-native1111", "libstrait.so", old);
        Path empty = oldDir(tmp, "strait-native2222", null, old);
        Path young = oldDir(tmp, "strait-native3333", "libstrait.so", null);
        Path mapped = oldDir(tmp, "strait-native4444", "libstrait.so", null);
        Path other = oldDir(tmp, "strait-native5555", "notes.txt", old);
        try (FileChannel ch = FileChannel.open(mapped.resolve("libstrait.so"), StandardOpenOption.READ)) {
            java.nio.MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, 4096);
            Files.setLastModifiedTime(mapped, old);
            normalRun(tmp);
            assertEquals(0, m.get(0));     // the mapping is alive during the child's sweep
        }
        assertFalse(Files.exists(stale), "stale, with the library");
        assertFalse(Files.exists(empty), "stale, empty");
        assertTrue(Files.exists(young.resolve("libstrait.so")), "changed within the last minute");
        assertTrue(Files.exists(mapped.resolve("libstrait.so")), "mapped by a live process");
        assertTrue(Files.exists(other.resolve("notes.txt")), "holds something that is not strait's");
    }

    private static Path oldDir(Path tmp, String name, String file, FileTime mtime) throws IOException {
        Path d = Files.createDirectory(tmp.resolve(name));
        if (file != null) Files.write(d.resolve(file), new byte[8192]);
        if (mtime != null) Files.setLastModifiedTime(d, mtime);
        return d;
    }
}
