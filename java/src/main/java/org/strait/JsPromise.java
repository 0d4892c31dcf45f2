package org.strait;

import org.strait.internal.Natives;

import java.util.concurrent.CompletableFuture;

/**
 * A JavaScript promise held from Java. {@link #toFuture()} gives a
 * CompletableFuture that completes when the promise settles: with the
 * fulfilled value converted to Java, or exceptionally with a JsException for
 * the rejection reason. Promise reactions run when the runtime drains its
 * microtasks (at the end of any call into it) or on its loop; if the runtime
 * closes first, the future fails with IllegalStateException.
 */
public final class JsPromise extends JsObject {
    private CompletableFuture<Object> future;   // guarded by this

    JsPromise(JsRuntime runtime, long handle) {
        super(runtime, handle);
    }

    /** The future view of this promise (the same future on every call). */
    public synchronized CompletableFuture<Object> toFuture() {
        if (future != null) return future;
        CompletableFuture<Object> f = new CompletableFuture<>();
        JsRuntime rt = enterUse();
        try {
            Natives.whenSettled(rt.peer, rt, handle, f);
        } finally {
            leaveUse(rt);
        }
        future = f;
        return f;
    }
}
