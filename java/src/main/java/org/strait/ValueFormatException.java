package org.strait;

/**
 * A buffer in the strait value format (docs/value-format.md) is corrupt or
 * truncated. Names the byte offset and the problem.
 */
public class ValueFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final long offset;

    public ValueFormatException(long offset, String problem) {
        super("corrupt value at byte " + offset + ": " + problem);
        this.offset = offset;
    }

    /** Byte offset of the problem from the start of the buffer (its header). */
    public long offset() {
        return offset;
    }
}
