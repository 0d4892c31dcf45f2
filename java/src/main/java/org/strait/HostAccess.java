package org.strait;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How much of the JVM a runtime's scripts may reach (docs/sandbox.md); set
 * with {@link JsRuntime.Builder#hostAccess}. From least to most:
 * <ul>
 * <li>{@link #NONE}: no Java at all. The globals {@code java}, {@code Packages},
 *     {@code Java} (and the other package roots) are not defined, and a Java
 *     object handed to the runtime is refused with an
 *     {@code IllegalArgumentException}.</li>
 * <li>{@link #GIVEN} (the default of {@link JsRuntime#create()}): no class
 *     lookup, but the public members of the objects the embedder hands in,
 *     and of the objects those return, are usable. A script reaches what it
 *     was given and nothing else.</li>
 * <li>{@link #EXPLICIT}: only members annotated {@link Export} (and the
 *     method of a functional interface the embedder passes).</li>
 * <li>{@link #ALL}: every public class and member (the launcher's
 *     behaviour).</li>
 * </ul>
 * Under every policy but {@code ALL}, reflection and class loading
 * ({@code getClass()}, {@code java.lang.Class}, {@code ClassLoader},
 * {@code java.lang.reflect}, {@code java.lang.invoke}, {@code Unsafe},
 * strait's internals) stay out of reach unless the embedder names them
 * ({@link JsRuntime.Builder#allowReflection}). A class filter
 * ({@link JsRuntime.Builder#classFilter}) narrows any policy further.
 */
public enum HostAccess {
    /** No Java. */
    NONE,
    /** The objects the embedder hands in and what they return. */
    GIVEN,
    /** Only members annotated {@link Export}. */
    EXPLICIT,
    /** Every public class and member. */
    ALL;

    /**
     * Marks a public constructor, method or field that scripts may use
     * under {@link HostAccess#EXPLICIT} (it changes nothing under the other
     * policies).
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.FIELD, ElementType.CONSTRUCTOR})
    public @interface Export {}
}
