package org.strait;

/**
 * A value cannot be converted (a JS function or symbol on the way to Java,
 * a Java object with no JS form): the message names the path from the root,
 * for example {@code $.a.b[3]}.
 */
public class ValueConversionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String path;

    public ValueConversionException(String message, String path) {
        super(message);
        this.path = path;
    }

    /** The path to the value that could not cross, {@code $} being the root. */
    public String path() {
        return path;
    }
}
