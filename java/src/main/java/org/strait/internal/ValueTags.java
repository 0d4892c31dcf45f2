package org.strait.internal;

/** Tags and constants of the value format (docs/value-format.md); mirrors src/core/codec.h. */
final class ValueTags {
    private ValueTags() {}

    static final int MAGIC0 = 0x53, MAGIC1 = 0x54, MAGIC2 = 0x56, VERSION = 1, HEADER = 8;

    static final int UNDEFINED = 0x00, NULL = 0x01, FALSE = 0x02, TRUE = 0x03, INT32 = 0x04,
            INT64 = 0x05, DOUBLE = 0x06, BIGINT = 0x07, STRING8 = 0x08, STRING16 = 0x09,
            ARRAY = 0x0A, ARRAY_F64 = 0x0B, ARRAY_I32 = 0x0C, OBJECT = 0x0D, KEYREF = 0x0E,
            MAP = 0x0F, SET = 0x10, DATE = 0x11, BYTES = 0x12, JAVAREF = 0x13, BACKREF = 0x14,
            EXT = 0x15, JSREF = 0x16;

    static final int B_ARRAYBUFFER = 0, B_INT8 = 1, B_UINT8 = 2, B_UINT8C = 3, B_INT16 = 4,
            B_UINT16 = 5, B_INT32 = 6, B_UINT32 = 7, B_FLOAT32 = 8, B_FLOAT64 = 9,
            B_BIGINT64 = 10, B_BIGUINT64 = 11, B_DATAVIEW = 12, B_KIND_MAX = 12;

    static final int[] KIND_SIZE = {1, 1, 1, 1, 2, 2, 4, 4, 4, 8, 8, 8, 1};

    static final double MAX_SAFE = 9007199254740991.0;

    /**
     * The number rule shared by every reader: integral, not -0 and in int
     * range gives Integer; integral, not -0 and |v| <= 2^53-1 gives Long;
     * anything else Double.
     */
    static Object number(double d) {
        int i = (int) d;
        if (i == d && (i != 0 || Double.doubleToRawLongBits(d) == 0)) return i;
        if (d >= -MAX_SAFE && d <= MAX_SAFE) {
            long l = (long) d;
            if (l == d && l != 0) return l;
        }
        return d;
    }

    /** True when d is an INT32 under the number rule. */
    static boolean isInt32(double d) {
        int i = (int) d;
        return i == d && (i != 0 || Double.doubleToRawLongBits(d) == 0);
    }
}
