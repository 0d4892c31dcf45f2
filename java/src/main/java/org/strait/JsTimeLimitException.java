package org.strait;

/**
 * The script ran past the runtime's time limit
 * ({@link JsRuntime.Builder#timeLimit}) and was terminated. The limit
 * applies to each entry into the runtime: one {@code eval}, one call from
 * Java, one event-loop task. The runtime stays usable for the next call.
 */
public class JsTimeLimitException extends JsInterruptedException {
    private static final long serialVersionUID = 1L;

    /** Made by the JNI layer (src/jni/base/throw.c). */
    public JsTimeLimitException(String message) {
        super(message);
    }
}
