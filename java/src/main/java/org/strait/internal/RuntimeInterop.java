package org.strait.internal;

import org.strait.JsRuntime;

import java.util.Objects;

/**
 * The JsRuntime methods of JavaScript-from-Java: globals, posting to the
 * event loop, running it. Kept apart from JsRuntime, which delegates here.
 * See docs/threading.md for the model.
 */
public final class RuntimeInterop {
    private static final ApiAccess A = ApiAccess.get();
    private RuntimeInterop() {}

    public static Object getGlobal(JsRuntime rt, String name) {
        Objects.requireNonNull(name, "name");
        A.enter(rt);
        try {
            A.drainIfPending(rt);
            return Natives.get(A.peer(rt), rt, 0, name);
        } finally {
            A.leave(rt);
        }
    }

    public static void setGlobal(JsRuntime rt, String name, Object value) {
        Objects.requireNonNull(name, "name");
        A.enter(rt);
        try {
            A.drainIfPending(rt);
            Args a = Args.one(rt, value);
            try {
                a.hold();
                Natives.set(A.peer(rt), 0, name, a.vals, a.refs);
            } finally {
                a.unhold();
            }
        } finally {
            A.leave(rt);
            java.lang.ref.Reference.reachabilityFence(value);
        }
    }

    public static void post(JsRuntime rt, Runnable task) {
        Objects.requireNonNull(task, "task");
        A.enter(rt);
        try {
            Natives.post(A.peer(rt), task);
        } finally {
            A.leave(rt);
        }
    }

    public static void runLoop(JsRuntime rt) {
        A.enter(rt);
        try {
            A.drainIfPending(rt);
            Natives.runLoop(A.peer(rt));
        } finally {
            A.leave(rt);
        }
    }

    public static AutoCloseable keepAlive(JsRuntime rt) {
        A.enter(rt);
        try {
            Natives.loopRef(A.peer(rt), 1);
        } finally {
            A.leave(rt);
        }
        return new AutoCloseable() {
            private boolean closed;

            @Override
            public synchronized void close() {
                if (closed) return;
                closed = true;
                if (!A.tryEnter(rt)) return;
                try {
                    Natives.loopRef(A.peer(rt), -1);
                } finally {
                    A.leave(rt);
                }
            }
        };
    }
}
