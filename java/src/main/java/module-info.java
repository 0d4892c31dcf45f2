/**
 * strait: JavaScript (JavaScriptCore) in the JVM. The API is package
 * {@code org.strait}; {@code org.strait.internal} (the natives, the bridge's
 * Java half, the value codec) and {@code org.strait.jscaller} (the caller
 * frame of caller-sensitive JDK members called from JS) are not exported.
 * The JNI layer reaches the internal classes by name (FindClass and
 * RegisterNatives ignore module boundaries), and JsCaller is called
 * directly from org.strait.internal.Bridge, in this module; the members it
 * calls reflectively are public members of classes JS can see, which core
 * reflection reads without a {@code requires}.
 */
module org.strait {
    exports org.strait;
}
