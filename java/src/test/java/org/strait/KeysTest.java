package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * JsObject.keys() is JavaScript's own Object.keys whatever a script did to
 * the global Object.keys, and an error inside (a Proxy trap) is a
 * JsException with the JS error, never a NegativeArraySizeException or
 * NullPointerException.
 */
class KeysTest {
    /** Replacements of Object.keys a script may install. */
    static final String[] REPLACEMENTS = {
        "",
        "Object.keys = () => { throw new Error('replaced keys throws'); };",
        "Object.keys = () => 42;",
        "Object.keys = () => null;",
        "Object.keys = () => ({ length: -5 });",
        "Object.keys = () => ({ length: 1e12 });",
        "Object.keys = () => ({ get length() { throw new Error('length getter'); } });",
        "Object.keys = () => [{ toString() { throw new Error('key toString'); } }];",
        "Object.keys = () => [Symbol('s'), 1, null];",
        "Object.keys = () => new Proxy([], { get() { throw new Error('proxy get'); } });",
        "delete Object.keys;",
        "globalThis.Object = null;",
        "Object.defineProperty(Array.prototype, 0, { get() { throw new Error('proto index'); } });",
    };

    /** Objects and the keys Object.keys gives for them (joined with '|'). */
    static final String[][] OBJECTS = {
        {"({})", ""},
        {"({a: 1, b: 2})", "a|b"},
        {"({2: 'x', 1: 'y', z: 0})", "1|2|z"},
        {"({[Symbol('s')]: 1, k: 2})", "k"},
        {"Object.defineProperty({v: 1}, 'hidden', {value: 2, enumerable: false})", "v"},
        {"Object.create({inherited: 1}, {own: {value: 1, enumerable: true}})", "own"},
        {"({get g() { throw new Error('never read'); }})", "g"},
        {"['x', 'y']", "0|1"},
        {"(function f(a) {})", ""},
        {"({'\u00e9\ud83d\ude00': 1})", "\u00e9\ud83d\ude00"},
    };

    @TestFactory
    List<DynamicTest> keysIgnoreWhatScriptsReplace() {
        List<DynamicTest> out = new ArrayList<>();
        for (String rep : REPLACEMENTS) {
            for (String[] o : OBJECTS) {
                out.add(DynamicTest.dynamicTest((rep.isEmpty() ? "intrinsic" : rep) + " / " + o[0], () -> {
                    try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                        // a JS array is a JsArray, which has the same keys() but is no JsObject
                        Object obj = rt.eval(o[0]);
                        rt.eval(rep);
                        List<String> keys = obj instanceof JsArray ? ((JsArray) obj).keys() : ((JsObject) obj).keys();
                        assertEquals(o[1], String.join("|", keys));
                    }
                }));
            }
        }
        return out;
    }

    /** A replaced global Promise changes neither which handles are JsPromise nor runs script code. */
    @TestFactory
    List<DynamicTest> promiseHandlesIgnoreAReplacedPromise() {
        String[] reps = {
            "globalThis.Promise = function Fake() {};",
            "globalThis.Promise = { [Symbol.hasInstance]() { globalThis.ran = true; return true; } };",
            "globalThis.Promise = null;",
        };
        List<DynamicTest> out = new ArrayList<>();
        for (String rep : reps) {
            out.add(DynamicTest.dynamicTest(rep, () -> {
                try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                    rt.eval("globalThis.P = Promise; globalThis.ran = false;" + rep);
                    assertTrue(rt.eval("P.resolve(1)") instanceof JsPromise);
                    assertFalse(rt.eval("({then() {}})") instanceof JsPromise);
                    assertFalse(rt.eval("({})") instanceof JsPromise);
                    assertEquals(false, rt.eval("ran"));
                }
            }));
        }
        return out;
    }

    /** has() reports a throwing trap as the JS error, not false. */
    @TestFactory
    List<DynamicTest> otherReadsReportThrowingTraps() {
        String[][] cases = {
            {"new Proxy({}, { has() { throw new RangeError('has trap'); } })", "has", "RangeError: has trap"},
            {"new Proxy({}, { has() { throw 'thrown string'; } })", "has", "thrown string"},
        };
        List<DynamicTest> out = new ArrayList<>();
        for (String[] c : cases) {
            out.add(DynamicTest.dynamicTest(c[1] + " / " + c[2], () -> {
                try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                    JsObject o = (JsObject) rt.eval(c[0]);
                    JsException e = assertThrows(JsException.class, () -> o.has("x"));
                    assertEquals(c[2], e.getMessage());
                    assertEquals(true, ((JsObject) rt.eval("({x: 1})")).has("x"));
                    assertEquals(3, ((JsArray) rt.eval("[1, 2, 3]")).size());
                }
            }));
        }
        return out;
    }

    /** Proxy traps that throw (or lie) give a JsException carrying the JS error. */
    @TestFactory
    List<DynamicTest> throwingTrapsAreJsExceptions() {
        String[][] traps = {
            {"ownKeys() { throw new RangeError('ownKeys trap'); }", "RangeError: ownKeys trap"},
            {"getOwnPropertyDescriptor() { throw new TypeError('gopd trap'); }", "TypeError: gopd trap"},
            {"ownKeys() { return [1]; }", "TypeError"},
            {"ownKeys() { throw 42; }", "42"},
        };
        List<DynamicTest> out = new ArrayList<>();
        for (String[] t : traps) {
            for (String rep : new String[] {"", REPLACEMENTS[1]}) {
                out.add(DynamicTest.dynamicTest(t[0] + (rep.isEmpty() ? "" : " / keys replaced"), () -> {
                    try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                        JsObject p = (JsObject) rt.eval("new Proxy({a: 1}, { " + t[0] + " })");
                        rt.eval(rep);
                        JsException e = assertThrows(JsException.class, p::keys);
                        assertTrue(e.getMessage().startsWith(t[1]), e.getMessage());
                        assertEquals(List.of("x"), ((JsObject) rt.eval("({x: 1})")).keys());
                    }
                }));
            }
        }
        return out;
    }
}
