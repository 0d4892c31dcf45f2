package org.strait;

import java.util.Objects;

/**
 * The JsRuntime methods of JavaScript-from-Java: globals, posting to the
 * event loop, running it. Kept apart from JsRuntime, which delegates here.
 * See docs/threading.md for the model.
 */
final class RuntimeInterop {
    private RuntimeInterop() {}

    static Object getGlobal(JsRuntime rt, String name) {
        Objects.requireNonNull(name, "name");
        rt.enter();
        try {
            rt.drainIfPending();
            return InteropNatives.get(rt.peer, rt, 0, name);
        } finally {
            rt.leave();
        }
    }

    static void setGlobal(JsRuntime rt, String name, Object value) {
        Objects.requireNonNull(name, "name");
        rt.enter();
        try {
            rt.drainIfPending();
            Args a = Args.one(rt, value);
            try {
                a.hold();
                InteropNatives.set(rt.peer, 0, name, a.vals, a.refs);
            } finally {
                a.unhold();
            }
        } finally {
            rt.leave();
            java.lang.ref.Reference.reachabilityFence(value);
        }
    }

    static void post(JsRuntime rt, Runnable task) {
        Objects.requireNonNull(task, "task");
        rt.enter();
        try {
            InteropNatives.post(rt.peer, task);
        } finally {
            rt.leave();
        }
    }

    static void runLoop(JsRuntime rt) {
        rt.enter();
        try {
            rt.drainIfPending();
            InteropNatives.runLoop(rt.peer);
        } finally {
            rt.leave();
        }
    }

    static AutoCloseable keepAlive(JsRuntime rt) {
        rt.enter();
        try {
            InteropNatives.loopRef(rt.peer, 1);
        } finally {
            rt.leave();
        }
        return new AutoCloseable() {
            private boolean closed;

            @Override
            public synchronized void close() {
                if (closed) return;
                closed = true;
                if (!rt.tryEnter()) return;
                try {
                    InteropNatives.loopRef(rt.peer, -1);
                } finally {
                    rt.leave();
                }
            }
        };
    }
}
