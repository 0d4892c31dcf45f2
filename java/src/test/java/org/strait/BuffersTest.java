package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * ByteBuffers shared with JS stay safe whatever JS or the runtime does: a
 * buffer from asByteBuffer() never points at freed memory or at another
 * runtime's (close, transfer, resize), a resizable or detached ArrayBuffer
 * is refused, and a read-only buffer given to toJs() is copied so JS cannot
 * write into it.
 */
class BuffersTest {
    /** JS expressions of the views asByteBuffer() accepts, over 64 bytes, and the range they cover. */
    static final String[][] VIEWS = {
        {"new ArrayBuffer(64)", "0", "64"},
        {"new Uint8Array(64)", "0", "64"},
        {"new Int32Array(16)", "0", "64"},
        {"new Float64Array(8)", "0", "64"},
        {"new Uint8Array(new ArrayBuffer(64), 16, 32)", "16", "32"},
        {"new BigInt64Array(new ArrayBuffer(64), 8, 4)", "8", "32"},
    };

    /** A byte of the pattern Java writes. */
    static byte pat(int i) {
        return (byte) (i * 7 + 3);
    }

    /** Fills b with the pattern and checks JS sees it through view v. */
    static void fillAndCheck(JsRuntime rt, ByteBuffer b, int off) {
        for (int i = 0; i < b.capacity(); i++) b.put(i, pat(i));
        String seen = (String) rt.eval("(() => { const u = new Uint8Array(v.buffer || v, " + off + ", "
                + b.capacity() + "); return Array.from(u).join(','); })()");
        StringBuilder want = new StringBuilder();
        for (int i = 0; i < b.capacity(); i++) want.append(i > 0 ? "," : "").append(pat(i) & 0xff);
        assertEquals(want.toString(), seen);
    }

    @TestFactory
    List<DynamicTest> bufferStaysSafeAfterRuntimeClose() {
        List<DynamicTest> out = new ArrayList<>();
        for (String[] v : VIEWS) {
            out.add(DynamicTest.dynamicTest(v[0], () -> {
                JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
                rt.eval("globalThis.v = " + v[0]);
                JsValue h = (JsValue) rt.getGlobal("v");
                ByteBuffer b = h.asByteBuffer();
                assertEquals(Integer.parseInt(v[2]), b.capacity());
                fillAndCheck(rt, b, Integer.parseInt(v[1]));
                rt.close();
                assertThrows(IllegalStateException.class, h::asByteBuffer);
                // another runtime allocates typed arrays; writes through the old
                // buffer must not reach them (the closed engine's memory is kept)
                try (JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                    other.eval("globalThis.arrs = []; for (let i = 0; i < 2000; i++)"
                            + " arrs.push(new Uint8Array(" + b.capacity() + ").fill(0x5a));");
                    for (int round = 0; round < 4; round++)
                        for (int i = 0; i < b.capacity(); i++) b.put(i, (byte) 0xee);
                    for (int i = 0; i < b.capacity(); i++) assertEquals((byte) 0xee, b.get(i));
                    assertEquals(true, other.eval("arrs.every(a => a.every(x => x === 0x5a))"));
                }
            }));
        }
        return out;
    }

    @TestFactory
    List<DynamicTest> transferAfterAsByteBufferKeepsTheMemory() {
        List<DynamicTest> out = new ArrayList<>();
        for (String[] v : VIEWS) {
            out.add(DynamicTest.dynamicTest(v[0], () -> {
                try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                    rt.eval("globalThis.v = " + v[0]);
                    ByteBuffer b = ((JsValue) rt.getGlobal("v")).asByteBuffer();
                    // the ArrayBuffer is pinned: transfer() copies and leaves it attached
                    Object r = rt.eval("(() => { const ab = v.buffer || v; const t = ab.transfer();"
                            + " const s = ab.transfer(8), g = ab.transfer(1024);"
                            + " const f = ab.transferToFixedLength ? ab.transferToFixedLength(4) : s;"
                            + " return ab.byteLength === 64 && !ab.detached && t.byteLength === 64"
                            + " && s.byteLength === 8 && g.byteLength === 1024 && f.byteLength <= 8; })()");
                    assertEquals(true, r);
                    fillAndCheck(rt, b, Integer.parseInt(v[1]));
                    rt.eval("for (let i = 0; i < 20000; i++) new Uint8Array(64);");
                    fillAndCheck(rt, b, Integer.parseInt(v[1]));
                }
            }));
        }
        return out;
    }

    /** Resizable ArrayBuffers and views of them, detached ones: refused, also when a script lies. */
    @TestFactory
    List<DynamicTest> resizableAndDetachedAreRefused() {
        String[][] cases = {
            {"new ArrayBuffer(8, {maxByteLength: 4096})", "resizable"},
            {"new Uint8Array(new ArrayBuffer(8, {maxByteLength: 4096}))", "resizable"},
            {"new Int16Array(new ArrayBuffer(8, {maxByteLength: 4096}), 2, 2)", "resizable"},
            {"new ArrayBuffer(0, {maxByteLength: 4096})", "resizable"},
            {"(() => { const a = new ArrayBuffer(8); a.transfer(); return a; })()", "detached"},
            {"(() => { const a = new ArrayBuffer(8); const u = new Uint8Array(a); a.transfer(); return u; })()",
                "detached"},
            {"({})", "not an ArrayBuffer"},
            {"[1, 2]", "not an ArrayBuffer"},
        };
        String[] lies = {"", "Object.defineProperty(ArrayBuffer.prototype, 'resizable', {get() { return false; }});"
                + "Object.defineProperty(ArrayBuffer.prototype, 'detached', {get() { return false; }});"};
        List<DynamicTest> out = new ArrayList<>();
        for (String[] c : cases) {
            for (String lie : lies) {
                out.add(DynamicTest.dynamicTest(c[0] + (lie.isEmpty() ? "" : " / getters replaced"), () -> {
                    try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                        rt.eval(lie);
                        JsValue h = (JsValue) rt.eval(c[0]);
                        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, h::asByteBuffer);
                        assertTrue(e.getMessage().contains(c[1]), e.getMessage());
                        // shrinking what was refused is harmless, and the runtime works on
                        rt.eval("globalThis.x = 1");
                        assertEquals(2, rt.eval("x + 1"));
                    }
                }));
            }
        }
        return out;
    }

    /**
     * A closed runtime whose asByteBuffer() buffer is collected is let go
     * (its lease's Cleaner ran, which frees the engine), and a closed one
     * is kept while the buffer lives.
     */
    @Test
    void leaseEndsWhenTheBufferIsCollected() throws Exception {
        JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        ByteBuffer b = ((JsValue) rt.eval("new Uint8Array(32)")).asByteBuffer();
        rt.close();
        java.lang.ref.WeakReference<JsRuntime> weak = new java.lang.ref.WeakReference<>(rt);
        rt = null;
        for (int i = 0; i < 5; i++) System.gc();
        assertNotNull(weak.get(), "the runtime is held while the buffer lives");
        b.put(0, (byte) 1);
        assertEquals(1, b.get(0));
        java.lang.ref.Reference.reachabilityFence(b);
        b = null;
        for (int i = 0; i < 200 && weak.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(weak.get(), "let go once the buffer was collected");
    }

    /** Read-only buffers given to toJs are copied: JS writes never reach them. */
    @TestFactory
    List<DynamicTest> readOnlyBuffersAreCopied() throws Exception {
        List<DynamicTest> out = new ArrayList<>();
        int[] sizes = {0, 1, 100, 4096};
        for (int n : sizes) {
            out.add(DynamicTest.dynamicTest("read-only direct, " + n + " bytes", () -> {
                ByteBuffer w = ByteBuffer.allocateDirect(n);
                for (int i = 0; i < n; i++) w.put(i, pat(i));
                checkCopied(w, w.asReadOnlyBuffer());
            }));
            out.add(DynamicTest.dynamicTest("mapped READ_ONLY, " + n + " bytes", () -> {
                Path f = Files.createTempFile("strait-ro", ".bin");
                try {
                    byte[] data = new byte[n];
                    for (int i = 0; i < n; i++) data[i] = pat(i);
                    Files.write(f, data);
                    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                        MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, n);
                        checkCopied(m, m);
                    }
                    assertArrayEquals(data, Files.readAllBytes(f), "the file is unchanged");
                } finally {
                    Files.deleteIfExists(f);
                }
            }));
            out.add(DynamicTest.dynamicTest("writable direct is shared, " + n + " bytes", () -> {
                ByteBuffer w = ByteBuffer.allocateDirect(n);
                try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                    rt.setGlobal("ab", rt.toJs(w));
                    rt.eval("new Uint8Array(ab).fill(9)");
                    for (int i = 0; i < n; i++) assertEquals(9, w.get(i));
                }
            }));
        }
        return out;
    }

    /** toJs(ro) is a JS ArrayBuffer with ro's bytes; JS writes land in the copy only. */
    static void checkCopied(ByteBuffer backing, ByteBuffer ro) {
        int n = ro.capacity();
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            Object ab = rt.toJs(ro);
            rt.setGlobal("ab", ab);
            assertEquals(n, rt.eval("ab.byteLength"));
            StringBuilder want = new StringBuilder();
            for (int i = 0; i < n; i++) want.append(i > 0 ? "," : "").append(pat(i) & 0xff);
            assertEquals(want.toString(), rt.eval("Array.from(new Uint8Array(ab)).join(',')"));
            rt.eval("new Uint8Array(ab).fill(0xff)");
            assertEquals(n == 0 ? 0 : 255, rt.eval("new Uint8Array(ab).reduce((a, x) => Math.max(a, x), 0)"));
            for (int i = 0; i < n; i++) assertEquals(pat(i), backing.get(i), "byte " + i);
        }
    }
}
