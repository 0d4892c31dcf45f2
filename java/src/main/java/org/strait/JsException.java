package org.strait;

/**
 * A JavaScript exception that reached Java: the thrown value with its
 * description. {@link #getMessage()} is {@code "Name: message"} for an Error
 * object, or the string form of any other thrown value ({@code throw 42}
 * gives {@code "42"}).
 */
public class JsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final String jsStack;
    private final String fileName;
    private final int lineNumber;
    private final int columnNumber;
    /**
     * The thrown value as the JNI layer reads it when this exception is
     * thrown back through JS (src/jni/value/exceptions.c): a JsValue of its own,
     * never handed out, so closing what {@link #getValue()} returned does
     * not lose the value; released by its Cleaner with this exception.
     */
    private final transient Object value;
    /** What {@link #getValue()} returns (the caller may close it). */
    private final transient Object userValue;

    /** Made by the JNI layer (src/jni/value/exceptions.c). */
    JsException(String message, String name, String jsStack, String fileName,
                int lineNumber, int columnNumber, Object value, Object userValue) {
        super(message);
        this.name = name;
        this.jsStack = jsStack;
        this.fileName = fileName;
        this.lineNumber = lineNumber;
        this.columnNumber = columnNumber;
        this.value = value;
        this.userValue = userValue;
    }

    /** The error's name ("TypeError"...), or the typeof of a thrown non-object. */
    public String getName() {
        return name;
    }

    /** The JavaScript stack trace, or null when the thrown value has none. */
    public String getJsStack() {
        return jsStack;
    }

    /** The script's file name where the error was raised, or null. */
    public String getFileName() {
        return fileName;
    }

    /** 1-based line, or 0 when unknown. */
    public int getLineNumber() {
        return lineNumber;
    }

    /** 1-based column, or 0 when unknown. */
    public int getColumnNumber() {
        return columnNumber;
    }

    /**
     * The thrown value converted like an eval result: Boolean, Integer,
     * Double, String, null, or a {@link JsValue} for an object. Closing that
     * JsValue does not affect this exception: thrown again through JS (from a
     * Java method JS called), it still carries the original JS value.
     */
    public Object getValue() {
        return userValue;
    }
}
