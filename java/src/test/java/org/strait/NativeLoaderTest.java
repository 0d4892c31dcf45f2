package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.io.File;
import org.junit.jupiter.api.Test;
import org.strait.internal.NativeLoader;

/** The library comes from the jar when nothing else provides it. */
class NativeLoaderTest {
    @Test
    void libraryLoadsFromTheJar() {
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            assertEquals(Integer.valueOf(2), rt.eval("1 + 1"));
        }
        String from = NativeLoader.loadedFrom();
        assertNotNull(from);
        assertTrue(new File(from).isAbsolute(), from);
        assertTrue(from.endsWith("/libstrait.so"), from);
        String expected = System.getProperty("strait.test.expectLoadedFrom");
        if ("jar".equals(expected)) {
            assertTrue(from.contains("strait-native"), "extracted from the jar, got " + from);
        }
    }

    @Test
    void loadIsIdempotent() {
        NativeLoader.load();
        String first = NativeLoader.loadedFrom();
        NativeLoader.load();
        assertEquals(first, NativeLoader.loadedFrom());
    }
}
