package org.strait;

import org.strait.internal.Args;
import org.strait.internal.Natives;

import java.lang.ref.Reference;
import java.util.concurrent.CompletableFuture;

/**
 * A JavaScript function held from Java. {@link #call} may be made from any
 * Java thread at any time; calls into one runtime are serialized by its
 * admission gate, and a call made by the thread that is already inside the
 * runtime (from a Java method JS called) goes straight in.
 *
 * <p>Arguments convert as follows: null to null, {@link JsObject#UNDEFINED}
 * to undefined, Boolean, Integer/Short/Byte, Double/Float, Long (a number up
 * to 2^53, else a BigInt), Character and String to the JS primitive, a
 * JsValue of the same runtime to its JS value, any other Java object to the
 * bridge's wrapper of it. Results convert as {@link JsRuntime#eval} does.
 */
public final class JsFunction extends JsObject {
    JsFunction(JsRuntime runtime, long handle) {
        super(runtime, handle);
    }

    /**
     * Calls the function with {@code this} undefined.
     * @throws JsException the function threw (a Java exception thrown
     *     through JS frames comes out as itself)
     * @throws IllegalStateException the runtime is closed
     * @throws JsInterruptedException interrupted while waiting for the runtime
     */
    public Object call(Object... args) {
        JsRuntime rt = enterUse();
        try {
            Args a = Args.pack(rt, false, null, args);
            try {
                return a.hold().call(rt, handle, Natives.CALL);
            } finally {
                a.unhold();
            }
        } finally {
            leaveUse(rt);
            Reference.reachabilityFence(args);
        }
    }

    /** Calls the function with the given {@code this} (converted like an argument). */
    public Object callWithThis(Object thiz, Object... args) {
        JsRuntime rt = enterUse();
        try {
            Args a = Args.pack(rt, true, thiz, args);
            try {
                return a.hold().call(rt, handle, Natives.THIS_PACKED);
            } finally {
                a.unhold();
            }
        } finally {
            leaveUse(rt);
            Reference.reachabilityFence(thiz);
            Reference.reachabilityFence(args);
        }
    }

    /** {@code new f(...args)}. @throws JsException if f is not a constructor or throws */
    public Object construct(Object... args) {
        JsRuntime rt = enterUse();
        try {
            Args a = Args.pack(rt, false, null, args);
            try {
                return a.hold().call(rt, handle, Natives.CONSTRUCT);
            } finally {
                a.unhold();
            }
        } finally {
            leaveUse(rt);
            Reference.reachabilityFence(args);
        }
    }

    /**
     * Calls the function later, on the runtime's event loop, and returns
     * at once. The future completes with the result (the settled value when
     * the function returns a promise), or exceptionally with the JsException.
     * It fails with IllegalStateException if the runtime closes first.
     * The loop must be running ({@link JsRuntime#runLoop}) for it to happen.
     */
    public CompletableFuture<Object> callAsync(Object... args) {
        CompletableFuture<Object> f = new CompletableFuture<>();
        JsRuntime rt = runtime();
        rt.post(() -> {
            Object r;
            try {
                r = call(args);
            } catch (Throwable t) {
                f.completeExceptionally(t);
                return;
            }
            if (r instanceof JsPromise) {
                JsPromise p = (JsPromise) r;
                p.toFuture().whenComplete((v, t) -> {
                    p.close();
                    if (t != null) f.completeExceptionally(t);
                    else f.complete(v);
                });
            } else {
                f.complete(r);
            }
        });
        return f;
    }
}
