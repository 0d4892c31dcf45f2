package org.strait;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * A test of what only the structured clone engine (src/core/clone.c) does:
 * Map, Date, cycles, transfer, values from JS to Java through a port. It is
 * skipped (reported as skipped, not as a failure) on a library built with
 * the JSON stand-in (src/core/clone_stub.c), and tagged
 * {@code clone-engine} to run these alone. See {@link CloneEngine}.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Tag("clone-engine")
@EnabledIf(value = "org.strait.CloneEngine#real",
        disabledReason = "needs the structured clone engine (src/core/clone.c); this library has the JSON stand-in")
@interface NeedsCloneEngine {
}
