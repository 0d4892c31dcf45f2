package org.strait;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The calling thread's value buffer: native memory (allocated once per
 * thread by the JNI layer) seen from Java as one direct ByteBuffer. The JS
 * side writes whole values into it and Java reads them, and the other way
 * round, so a conversion is one crossing. A conversion that finds the buffer
 * busy (an outer conversion on the same thread is still using it) uses a
 * buffer of its own, so nesting is safe.
 */
final class ValueBuffers {
    private ValueBuffers() {}

    /** Per-thread state: the shared buffer and how many conversions use it. */
    static final class State {
        final ByteBuffer buf;
        int busy;

        State(ByteBuffer buf) {
            this.buf = buf.order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    private static final ThreadLocal<State> STATE = ThreadLocal.withInitial(() -> new State(Natives.codecThreadBuffer()));

    /** The calling thread's state (its buffer is made on first use). */
    static State forThread() {
        return STATE.get();
    }
}
