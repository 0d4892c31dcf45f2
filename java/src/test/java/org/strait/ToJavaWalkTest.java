package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.*;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * JsValue.toJava() walks a JS value once and within bounds: every array element getter runs exactly
 * once (whatever types it answers), a length past what a Java List or a value buffer can hold fails
 * before any element is read (Proxies included), and the holes of sparse arrays are bounded (see
 * docs/value-format.md, "Limits"). A hang here is a failure through @Timeout.
 */
@Timeout(120)
class ToJavaWalkTest {
    static final int MAX_HOLES = 1 << 20;

    JsRuntime rt;

    @BeforeEach
    void open() {
        rt = JsRuntime.newBuilder().allowAllAccess(true).build();
    }

    @AfterEach
    void close() {
        rt.close();
    }

    Object toJava(String src) {
        Object v = rt.eval(src);
        return v instanceof JsValue ? ((JsValue) v).toJava() : v;
    }

    JsException rangeError(String src) {
        JsException e = assertThrows(JsException.class, () -> toJava(src), src);
        assertEquals("RangeError", e.getName(), src);
        return e;
    }

    /** The second answer of each getter differs in type from the first; only the first may be seen. */
    @Test
    void elementGettersRunOnceWhateverTheyAnswer() {
        String[] firsts = {"5", "0.5", "'s'", "null", "undefined", "({k: 1})", "[7]", "true"};
        Object[] expected = {5, 0.5, "s", null, null, Map.of("k", 1), List.of(7), true};
        String[] seconds = {"'str'", "5", "({o: 1})", "undefined", "1.5", "[9]"};
        for (int len = 1; len <= 8; len++) {
            for (int start = 0; start < firsts.length; start++) {
                for (String second : seconds) {
                    String src = "(() => { globalThis.calls = []; const firsts = [" + String.join(", ", firsts) + "];"
                            + " const a = []; for (let i = 0; i < " + len + "; i++) { calls.push(0);"
                            + "  Object.defineProperty(a, i, {enumerable: true, get() {"
                            + "    return calls[i]++ === 0 ? firsts[(" + start + " + i) % " + firsts.length + "] : " + second + "; }}); }"
                            + " return a; })()";
                    List<?> l = (List<?>) toJava(src);
                    assertEquals(Boolean.TRUE, rt.eval("calls.every(c => c === 1)"), "getter ran twice: " + src);
                    assertEquals(len, l.size(), src);
                    for (int i = 0; i < len; i++) {
                        assertEquals(expected[(start + i) % firsts.length], l.get(i), src);
                    }
                }
            }
        }
        // the reported case: a getter answering 5 and then 'str' converts to 5, not 0
        assertEquals(List.of(5), toJava("(() => { let n = 0; const a = [];"
                + " Object.defineProperty(a, 0, {get: () => n++ ? 'str' : 5}); return a; })()"));
    }

    @Test
    void hugeLengthsFailBeforeAnyElementIsRead() {
        // 2**31 - 13: with the 8-byte header and the 5-byte array tag, one byte per element passes 2**31 - 1
        String[] lengths = {"2**32 - 1", "4000000001", "2**31", "2**31 - 1", "2**31 - 13", "Infinity", "1e300"};
        for (String len : lengths) {
            String src = "(() => { globalThis.gets = 0; return new Proxy([], {get(t, k) {"
                    + " if (k === 'length') return " + len + "; gets++; return 1; }}); })()";
            JsException e = rangeError(src);
            assertTrue(e.getMessage().contains("cannot convert an array of length"), e.getMessage());
            assertEquals(0, ((Number) rt.eval("gets")).intValue(), "get trap called for length " + len);
        }
        JsException e = rangeError("(() => { const a = []; a[4e9] = 1; return {a}; })()");
        assertTrue(e.getMessage().contains("length 4000000001"), e.getMessage());
        assertTrue(e.getMessage().contains("at $.a"), e.getMessage());
        // the runtime is still usable
        assertEquals(List.of(1, 2), toJava("[1, 2]"));
    }

    @Test
    void sparseArraysAreBoundedAndSmallOnesConvert() {
        @SuppressWarnings("unchecked")
        List<Object> l = (List<Object>) toJava("(() => { const a = [1, , 3]; a[1000] = 'x'; return a; })()");
        assertEquals(1001, l.size());
        assertEquals(Arrays.asList(1, null, 3), l.subList(0, 3));
        assertEquals("x", l.get(1000));
        // at the limit: MAX_HOLES holes, then one element
        assertEquals(MAX_HOLES + 1, ((List<?>) toJava("(() => { const a = []; a[" + MAX_HOLES + "] = 1; return a; })()")).size());
        // one past it
        JsException e = rangeError("(() => { const a = []; a[" + (MAX_HOLES + 1) + "] = 1; return {a}; })()");
        assertTrue(e.getMessage().contains("sparse array"), e.getMessage());
        assertTrue(e.getMessage().contains("at $.a["), e.getMessage());
        // the gigantic case of the report fails at once
        rangeError("(() => { const a = []; a[2e9] = 1; return a; })()");
        // present elements earn holes: 10 elements, MAX_HOLES + 10 holes
        assertEquals(MAX_HOLES + 21, ((List<?>) toJava("(() => { const a = Array.from({length: 10}, (_, i) => 'v' + i);"
                + " a[" + (MAX_HOLES + 20) + "] = 1; return a; })()")).size());
    }
}
