package org.strait;

import java.time.Duration;

/**
 * Whether the library holds the structured clone engine (src/core/clone.c)
 * or the JSON-based stand-in of the branch that built the Java side before
 * it (src/core/clone_stub.c), whose strait_clone_write_value always fails
 * with the message "stub". The probe recognizes the stand-in by that exact
 * failure only, so a real engine that fails otherwise still runs (and
 * fails) the tests marked {@link NeedsCloneEngine}.
 */
final class CloneEngine {
    private static Boolean real;

    private CloneEngine() {}

    /** False when the stand-in answers instead of the engine (the condition of NeedsCloneEngine). */
    static synchronized boolean real() {
        if (real == null) {
            try (JsRuntime rt = JsRuntime.create(); JsMessagePort p = rt.openMessagePort()) {
                rt.setGlobal("port", p.jsPort());
                rt.eval("port.postMessage(1)");
                p.receive(Duration.ofSeconds(30));
                real = true;
            } catch (ValueConversionException e) {
                real = !e.getMessage().endsWith(": stub");
            }
        }
        return real;
    }
}
