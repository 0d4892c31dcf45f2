package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** JS exceptions reaching Java as JsException. */
class JsExceptionTest extends RuntimeTestBase {

    @Test
    void errorNameMessageFileLineColumnStack() {
        String src = "function inner() {\n  throw new TypeError('bad thing');\n}\nfunction outer() { inner(); }\nouter();\n";
        JsException e = assertThrows(JsException.class, () -> rt.eval(src, "test-file.js"));
        assertEquals("TypeError: bad thing", e.getMessage());
        assertEquals("TypeError", e.getName());
        assertEquals("test-file.js", e.getFileName());
        assertEquals(2, e.getLineNumber());
        assertTrue(e.getColumnNumber() > 0, "column " + e.getColumnNumber());
        assertNotNull(e.getJsStack());
        assertTrue(e.getJsStack().contains("inner"), e.getJsStack());
        assertTrue(e.getJsStack().contains("outer"), e.getJsStack());
        assertTrue(e.getValue() instanceof JsValue);
        ((JsValue) e.getValue()).close();
    }

    @Test
    void engineRaisedErrors() {
        JsException e = assertThrows(JsException.class, () -> rt.eval("null.foo", "n.js"));
        assertEquals("TypeError", e.getName());
        assertTrue(e.getMessage().startsWith("TypeError: "), e.getMessage());
        e = assertThrows(JsException.class, () -> rt.eval("notDefinedAnywhere + 1"));
        assertEquals("ReferenceError", e.getName());
        assertTrue(e.getMessage().contains("notDefinedAnywhere"), e.getMessage());
    }

    @Test
    void customErrorSubclassName() {
        JsException e = assertThrows(JsException.class, () -> rt.eval(
                "class MyError extends Error { constructor(m) { super(m); this.name = 'MyError'; } }\n"
                + "throw new MyError('custom');"));
        assertEquals("MyError: custom", e.getMessage());
        assertEquals("MyError", e.getName());
    }

    @Test
    void syntaxError() {
        JsException e = assertThrows(JsException.class, () -> rt.eval("var x = ;\n", "syntax.js"));
        assertEquals("SyntaxError", e.getName());
        assertTrue(e.getMessage().startsWith("SyntaxError: "), e.getMessage());
        assertEquals(1, e.getLineNumber());
        assertEquals("syntax.js", e.getFileName());
    }

    @Test
    void syntaxErrorOnLaterLine() {
        JsException e = assertThrows(JsException.class, () -> rt.eval("1;\n2;\nif (;\n", "s2.js"));
        assertEquals("SyntaxError", e.getName());
        assertEquals(3, e.getLineNumber());
    }

    @Test
    void thrownNumberIsReadable() {
        JsException e = assertThrows(JsException.class, () -> rt.eval("throw 42"));
        assertEquals("42", e.getMessage());
        assertEquals(Integer.valueOf(42), e.getValue());
        assertEquals("number", e.getName());
    }

    @Test
    void thrownStringAndOthers() {
        JsException e = assertThrows(JsException.class, () -> rt.eval("throw 'just a string \\u00e9'"));
        assertEquals("just a string \u00e9", e.getMessage());
        assertEquals("just a string \u00e9", e.getValue());
        e = assertThrows(JsException.class, () -> rt.eval("throw null"));
        assertEquals("null", e.getMessage());
        e = assertThrows(JsException.class, () -> rt.eval("throw undefined"));
        assertEquals("undefined", e.getMessage());
        e = assertThrows(JsException.class, () -> rt.eval("throw {code: 7}"));
        assertNotNull(e.getMessage());
    }

    @Test
    void messageWithNonAsciiSurvives() {
        JsException e = assertThrows(JsException.class,
                () -> rt.eval("throw new Error('caf\\u00e9 \\ud83d\\ude00')"));
        assertEquals("Error: caf\u00e9 \uD83D\uDE00", e.getMessage());
    }

    @Test
    void runtimeUsableAfterException() {
        assertThrows(JsException.class, () -> rt.eval("throw new Error('x')"));
        assertEquals(Integer.valueOf(5), rt.eval("2 + 3"));
    }

    @Test
    void deepRecursionOnCallingThread() {
        JsException e = assertThrows(JsException.class, () -> rt.eval("function f(n) { return f(n + 1) + 1; } f(0)"));
        assertEquals("RangeError", e.getName());
        assertEquals(Integer.valueOf(1), rt.eval("1"));
    }

    @Test
    void deepRecursionOnDefaultStackThread() throws Exception {
        assertRangeErrorOnThread(0);
    }

    @Test
    void deepRecursionOn512kStackThread() throws Exception {
        assertRangeErrorOnThread(512 * 1024);
    }

    @Test
    void deepRecursionOn256kStackThread() throws Exception {
        assertRangeErrorOnThread(256 * 1024);
    }

    @Test
    void deepRecursionOn8mStackThread() throws Exception {
        assertRangeErrorOnThread(8 * 1024 * 1024);
    }

    /** Deep JS recursion on a Java thread with the given stack size (0: default). */
    private void assertRangeErrorOnThread(long stackSize) throws Exception {
        AtomicReference<Throwable> got = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                rt.eval("function g(n) { return n === -1 ? 0 : g(n + 1) + 1; } g(0)");
                got.set(new AssertionError("no exception"));
            } catch (Throwable e) {
                got.set(e);
            }
        }, "deep-" + stackSize, stackSize);
        t.start();
        t.join();
        Throwable e = got.get();
        assertTrue(e instanceof JsException, "got " + e);
        assertEquals("RangeError", ((JsException) e).getName());
        // the thread can still run Java and JS after the overflow
        assertEquals(Integer.valueOf(7), rt.eval("3 + 4"));
    }
}
