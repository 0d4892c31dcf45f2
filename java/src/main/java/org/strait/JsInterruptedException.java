package org.strait;

/**
 * The JavaScript a call was running was stopped, or the call could not
 * start: {@link JsRuntime#interrupt()} (from any thread), a
 * {@link Thread#interrupt()} of the calling thread while it ran JS or
 * waited for the runtime, or {@link JsRuntime#close()} from another thread.
 * The termination is uncatchable in JS ({@code catch} and {@code finally}
 * do not run script again), and the runtime stays usable for the next call.
 * Like {@link InterruptedException}, it clears the thread's interrupt
 * status when a {@code Thread.interrupt()} caused it.
 *
 * <p>The subclasses say that a limit of the runtime stopped the script:
 * {@link JsTimeLimitException}, {@link JsHeapLimitException}.
 */
public class JsInterruptedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** Made by the JNI layer (src/jni/base/throw.c). */
    public JsInterruptedException(String message) {
        super(message);
    }
}
