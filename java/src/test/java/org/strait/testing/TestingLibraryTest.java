package org.strait.testing;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.strait.JsRuntime;

/**
 * The test/bench library variant (build/lib-testing) registers its natives
 * on TestNatives and its benchmark hooks work; run with that library only
 * (tag {@value TestNatives#TAG}, scripts/test-java.sh).
 */
@Tag(TestNatives.TAG)
class TestingLibraryTest {
    @Test
    void benchmarkHooksInstallOnRequest() {
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            assertEquals("undefined", rt.eval("typeof Java.__bench"));
            TestNatives.bridgeBenchInstall(TestNatives.peer(rt));
            assertEquals("function", rt.eval("typeof Java.__bench.jni"));
            assertNull(rt.eval("Java.__bench.empty()"));
            assertEquals(Boolean.TRUE, rt.eval("let o = {}; Java.__bench.token(o) === o"));
        }
    }

    @Test
    void probesCount() {
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            assertTrue(TestNatives.probeLiveRuntimes() >= 1, "this runtime is counted");
            TestNatives.probeInstall(TestNatives.peer(rt));
            assertEquals("object", rt.eval("typeof __straitProbe()"));
        }
        assertTrue(TestNatives.probeFinalized() >= 0);
    }
}
