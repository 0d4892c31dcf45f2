package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * AtomicInteger and AtomicLong cross into JS as Java objects, not numbers
 * (docs/value-format.md): JS updates the very object Java holds, by every
 * path a value takes (toJs alone, inside a Map or List, a call argument,
 * a global).
 */
class AtomicCrossingTest {
    @TestFactory
    List<DynamicTest> atomicsCrossAsTheJavaObject() {
        List<DynamicTest> out = new ArrayList<>();
        String[] paths = {"toJs", "toJs(Map)", "toJs(List)", "argument", "setGlobal"};
        for (String path : paths) {
            for (Number n : new Number[] {new AtomicInteger(41), new AtomicLong(41)}) {
                out.add(DynamicTest.dynamicTest(n.getClass().getSimpleName() + " / " + path, () -> {
                    try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                        switch (path) {
                            case "toJs" -> rt.setGlobal("a", rt.toJs(n));
                            case "toJs(Map)" -> rt.setGlobal("a", ((JsObject) rt.toJs(Map.of("k", n))).get("k"));
                            case "toJs(List)" -> rt.setGlobal("a", ((JsArray) rt.toJs(List.of(n))).get(0));
                            case "argument" -> ((JsFunction) rt.eval("(x => { globalThis.a = x; })")).call(n);
                            default -> rt.setGlobal("a", n);
                        }
                        assertEquals("object", rt.eval("typeof a"));
                        assertEquals(42, ((Number) rt.eval("Number(a.incrementAndGet())")).intValue());
                        assertEquals(42, n.intValue(), "JS updated Java's object");
                        assertSame(n, rt.getGlobal("a"));
                    }
                }));
            }
        }
        return out;
    }
}
