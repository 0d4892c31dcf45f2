package org.strait;

/**
 * Thrown to a Java thread that was interrupted ({@link Thread#interrupt})
 * while it waited for a runtime another thread was using. Like
 * {@link InterruptedException}, it clears the thread's interrupt status;
 * the call did not run.
 */
public class JsInterruptedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** Made by the JNI layer (src/jni/base/entry.c). */
    public JsInterruptedException(String message) {
        super(message);
    }
}
