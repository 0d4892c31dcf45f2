package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JsRuntime.Builder: every option by its typed setter and by name, bad
 * values refused at build() with a message naming the option, and the
 * secure defaults of JsRuntime.create().
 */
class BuilderTest {

    private static void refused(String option, Supplier<JsRuntime.Builder> b) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            try (JsRuntime rt = b.get().build()) {
                fail("built a runtime");
            }
        });
        assertTrue(e.getMessage().contains("'" + option + "'"), () -> "message does not name " + option + ": " + e.getMessage());
    }

    @Test
    void badValuesAreRefusedAtBuildNamingTheOption() {
        refused("time-limit", () -> JsRuntime.newBuilder().timeLimit(Duration.ZERO));
        refused("time-limit", () -> JsRuntime.newBuilder().timeLimit(Duration.ofMillis(-5)));
        refused("time-limit", () -> JsRuntime.newBuilder().option("time-limit", "soon"));
        refused("time-limit", () -> JsRuntime.newBuilder().option("time-limit", "-1s"));
        refused("time-limit", () -> JsRuntime.newBuilder().option("time-limit", "0"));
        refused("time-limit", () -> JsRuntime.newBuilder().option("time-limit", "NaN"));
        refused("heap-limit", () -> JsRuntime.newBuilder().heapLimit(0));
        refused("heap-limit", () -> JsRuntime.newBuilder().heapLimit(-1));
        refused("heap-limit", () -> JsRuntime.newBuilder().heapLimit(1000));
        refused("heap-limit", () -> JsRuntime.newBuilder().option("heap-limit", "lots"));
        refused("max-source-size", () -> JsRuntime.newBuilder().maxSourceSize(0));
        refused("max-source-size", () -> JsRuntime.newBuilder().maxSourceSize(-5));
        refused("max-source-size", () -> JsRuntime.newBuilder().option("max-source-size", "huge"));
        refused("host-access", () -> JsRuntime.newBuilder().option("host-access", "some"));
        refused("allow-env", () -> JsRuntime.newBuilder().option("allow-env", "yes"));
        refused("fs-root", () -> JsRuntime.newBuilder().option("fs-root", "/no/such/dir"));
        refused("fs-root", () -> JsRuntime.newBuilder().fileSystemRoot(Path.of("/proc/self/status")));
        refused("fs-root", () -> JsRuntime.newBuilder().fileSystemRoot(Path.of("/tmp")).allowFileSystem(false));
        refused("allow-reflection", () -> JsRuntime.newBuilder().allowReflection("java.lang.Class; rm -rf"));
        refused("arguments", () -> JsRuntime.newBuilder().arguments("a", null));
        refused("nope", () -> JsRuntime.newBuilder().option("nope", "1"));
    }

    @Test
    void unknownOptionListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JsRuntime.newBuilder().option("time-limt", "1s").build());
        assertTrue(e.getMessage().contains("time-limit"), e.getMessage());
    }

    @Test
    void createIsTheSecureDefault() {
        try (JsRuntime rt = JsRuntime.create()) {
            assertEquals("undefined", rt.eval("typeof java + typeof Packages + typeof Java === 'undefinedundefinedundefined' ? 'undefined' : 'defined'"));
            assertEquals(0, rt.eval("Object.keys(process.env).length"));
            JsException e = assertThrows(JsException.class, () -> rt.eval("require('/etc/passwd')"));
            assertTrue(e.getMessage().contains("not allowed"), e.getMessage());
            // exit ends the runtime, not the JVM
            assertThrows(JsExitException.class, () -> rt.eval("process.exit(3)"));
        }
    }

    @Test
    void noEngineInternalsAreReachable() {
        // process.binding-like doors to natives: none under the default, nor with all access
        for (JsRuntime.Builder b : List.of(JsRuntime.newBuilder(), JsRuntime.newBuilder().allowAllAccess(true))) {
            try (JsRuntime rt = b.build()) {
                assertEquals("undefined undefined undefined undefined undefined", rt.eval(
                        "[typeof process.binding, typeof process._linkedBinding, typeof process.dlopen,"
                                + " typeof globalThis.native, typeof globalThis.internal].join(' ')"));
                assertEquals("", rt.eval("Object.getOwnPropertyNames(process).filter(k => k.startsWith('_')).join()"));
            }
        }
    }

    @Test
    void optionsByNameAndBySetterAreTheSame() {
        try (JsRuntime a = JsRuntime.newBuilder().option("allow-env", "true").build();
             JsRuntime b = JsRuntime.newBuilder().allowEnvironment(true).build()) {
            String path = System.getenv("PATH");
            assertEquals(path, a.eval("process.env.PATH"));
            assertEquals(path, b.eval("process.env.PATH"));
        }
    }

    @Test
    void argumentsBecomeProcessArgv() {
        try (JsRuntime rt = JsRuntime.newBuilder().arguments("one", "two words", "ü").build()) {
            assertEquals("one|two words|ü", rt.eval("process.argv.slice(2).join('|')"));
        }
    }

    @Test
    void exitRefusedLetsTheScriptGoOn() {
        try (JsRuntime rt = JsRuntime.newBuilder().allowExit(false).build()) {
            assertEquals("refused", rt.eval("try { process.exit(1); 'exited' } catch (e) { /not allowed/.test(e.message) ? 'refused' : e.message }"));
            assertEquals(2, rt.eval("1 + 1"));
        }
    }

    @Test
    void fileSystemRootConfinesRequire(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectory(dir.resolve("root"));
        Files.writeString(root.resolve("a.js"), "module.exports = 'inside'");
        Files.writeString(dir.resolve("secret.js"), "module.exports = 'SECRET-CONTENT'");
        Files.createSymbolicLink(root.resolve("link.js"), dir.resolve("secret.js"));
        try (JsRuntime rt = JsRuntime.newBuilder().fileSystemRoot(root).build()) {
            assertEquals("inside", rt.eval("require(" + quote(root.resolve("a.js")) + ")"));
            for (String escape : List.of(dir.resolve("secret.js").toString(),
                    root.resolve("../secret.js").toString(), root.resolve("link.js").toString())) {
                JsException e = assertThrows(JsException.class, () -> rt.eval("require(" + quote(Path.of(escape)) + ")"),
                        escape);
                assertFalse(e.getMessage().contains("SECRET-CONTENT"), e.getMessage());
            }
        }
    }

    private static String quote(Path p) {
        return "'" + p.toString().replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    @Test
    void allowAllAccessGrantsTheJvm() {
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            assertEquals(3, rt.eval("new java.util.ArrayList(java.util.List.of(1, 2, 3)).size()"));
            assertEquals(System.getenv("PATH"), rt.eval("process.env.PATH"));
        }
    }

    @Test
    void aBuilderCanBeReused() {
        JsRuntime.Builder b = JsRuntime.newBuilder().arguments("x");
        try (JsRuntime r1 = b.build(); JsRuntime r2 = b.build()) {
            assertEquals("x", r1.eval("process.argv[2]"));
            assertEquals("x", r2.eval("process.argv[2]"));
        }
    }
}
