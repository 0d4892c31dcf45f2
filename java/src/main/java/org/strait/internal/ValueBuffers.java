package org.strait.internal;

import java.lang.ref.SoftReference;
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
    /** Up to this size they are kept strongly; larger ones through a SoftReference (the GC may drop them). */
    static final int KEEP_STRONG = 256 * 1024;

    /**
     * Per-thread state: the shared buffer, how many conversions use it, and
     * (for the outermost conversion only) the Java writer's byte array and
     * tables, the Java reader's byte array, and a direct buffer for values
     * larger than the shared one, all kept between conversions so a large
     * value does not allocate and zero them each time. Arrays above
     * {@link #KEEP_STRONG} are held softly, so a thread that once converted a
     * large value does not pin that memory when the heap is short.
     */
    static final class State {
        final ByteBuffer buf;
        int busy;
        private byte[] scratch = new byte[4096];
        private SoftReference<byte[]> bigScratch;
        /** The Java writer's tables (emptied after each use; replaced when they grew too large). */
        ValueWriter.IdTable ids = new ValueWriter.IdTable();
        ValueWriter.KeyTable keys = new ValueWriter.KeyTable();
        private final byte[] readScratch = new byte[KEEP_STRONG];
        private SoftReference<byte[]> bigRead;
        private SoftReference<ByteBuffer> spill;

        State(ByteBuffer buf) {
            this.buf = buf.order(ByteOrder.LITTLE_ENDIAN);
        }

        /** Replaces the writer's tables if they grew too large to keep (they are empty here). */
        void keepTables() {
            if (!ids.clear()) ids = new ValueWriter.IdTable();
            if (!keys.clear()) keys = new ValueWriter.KeyTable();
        }

        /** The array the Java writer starts with (the largest one kept). */
        byte[] writerArray() {
            byte[] big = bigScratch == null ? null : bigScratch.get();
            return big != null ? big : scratch;
        }

        /** Keeps the writer's array (if not too large) for the next conversion. */
        void keep(byte[] a) {
            if (a.length <= KEEP_STRONG) scratch = a;
            else if (a.length <= KEEP_MAX) bigScratch = new SoftReference<>(a);
        }

        /** An array of at least n bytes for the Java reader's copy of a value. */
        byte[] readArray(int n) {
            if (n <= readScratch.length) return readScratch;
            byte[] big = bigRead == null ? null : bigRead.get();
            if (big == null || big.length < n) {
                big = new byte[Math.max(n, Math.min(KEEP_MAX, big == null ? 2 * KEEP_STRONG : 2 * big.length))];
                if (big.length <= KEEP_MAX) bigRead = new SoftReference<>(big);
            }
            return big;
        }

        /** A direct buffer of at least n bytes for a value that does not fit in buf. */
        ByteBuffer spill(int n) {
            ByteBuffer s = spill == null ? null : spill.get();
            if (s == null || s.capacity() < n) {
                s = ByteBuffer.allocateDirect(Math.max(n, s == null ? 0 : Math.min(KEEP_MAX, s.capacity() * 2)))
                        .order(ByteOrder.LITTLE_ENDIAN);
                if (s.capacity() <= KEEP_MAX) spill = new SoftReference<>(s);
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
