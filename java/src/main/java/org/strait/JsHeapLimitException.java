package org.strait;

/**
 * The script's JS heap grew past the runtime's heap limit
 * ({@link JsRuntime.Builder#heapLimit}) and the script was terminated
 * (docs/sandbox.md says how precisely). After the collector ran, a runtime
 * whose live data fits again under the limit takes further calls; one whose
 * live data still exceeds it refuses every further call with this
 * exception: close it.
 */
public class JsHeapLimitException extends JsInterruptedException {
    private static final long serialVersionUID = 1L;

    /** Made by the JNI layer (src/jni/base/throw.c). */
    public JsHeapLimitException(String message) {
        super(message);
    }
}
