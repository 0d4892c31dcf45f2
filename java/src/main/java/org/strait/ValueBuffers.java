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

    /** Arrays and spill buffers up to this size are kept for the thread's next conversion. */
    static final int KEEP_MAX = 16 << 20;

    /**
     * Per-thread state: the shared buffer, how many conversions use it, and
     * (for the outermost conversion only) the Java writer's byte array and a
     * direct buffer for values larger than the shared one, both kept between
     * conversions so a large value does not allocate and zero them each time.
     */
    static final class State {
        final ByteBuffer buf;
        int busy;
        byte[] scratch = new byte[4096];
        /** The Java writer's tables (emptied after each use; replaced when they grew too large). */
        ValueWriter.IdTable ids = new ValueWriter.IdTable();
        ValueWriter.KeyTable keys = new ValueWriter.KeyTable();
        /** The Java reader's copy of a value (as large as the thread buffer; grown for spilled values). */
        byte[] readScratch = new byte[256 * 1024];
        ByteBuffer spill;

        State(ByteBuffer buf) {
            this.buf = buf.order(ByteOrder.LITTLE_ENDIAN);
        }

        /** Replaces the writer's tables if they grew too large to keep (they are empty here). */
        void keepTables() {
            if (!ids.clear()) ids = new ValueWriter.IdTable();
            if (!keys.clear()) keys = new ValueWriter.KeyTable();
        }

        /** Keeps the writer's array (if not too large) for the next conversion. */
        void keep(byte[] a) {
            if (a.length <= KEEP_MAX) scratch = a;
        }

        /** A direct buffer of at least n bytes for a value that does not fit in buf. */
        ByteBuffer spill(int n) {
            ByteBuffer s = spill;
            if (s == null || s.capacity() < n) {
                s = ByteBuffer.allocateDirect(Math.max(n, s == null ? 0 : Math.min(KEEP_MAX, s.capacity() * 2)))
                        .order(ByteOrder.LITTLE_ENDIAN);
                if (s.capacity() <= KEEP_MAX) spill = s;
            }
            return s;
        }
    }

    private static final ThreadLocal<State> STATE = ThreadLocal.withInitial(() -> new State(Natives.codecThreadBuffer()));

    /** The calling thread's state (its buffer is made on first use). */
    static State forThread() {
        return STATE.get();
    }
}
