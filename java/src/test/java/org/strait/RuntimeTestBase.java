package org.strait;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The common set-up of the tests that use one runtime per test: {@link #rt}
 * is a fresh {@link JsRuntime} for each test method, closed after it (a
 * test may close it itself: close() is idempotent).
 */
abstract class RuntimeTestBase {
    /** This test's runtime. */
    protected JsRuntime rt;

    @BeforeEach
    void openRuntime() {
        rt = JsRuntime.newBuilder().allowAllAccess(true).build();
    }

    @AfterEach
    void closeRuntime() {
        rt.close();
    }
}
