package org.strait;

/**
 * Thrown by {@link JsRuntime#eval} when the script called
 * {@code process.exit(code)}: in an embedded runtime that ends the script,
 * not the JVM.
 */
public class JsExitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    /** Made by the JNI layer (src/jni/base/throw.c). */
    JsExitException(int exitCode) {
        super("process.exit(" + exitCode + ") was called");
        this.exitCode = exitCode;
    }

    /** The code the script passed to process.exit(). */
    public int getExitCode() {
        return exitCode;
    }
}
