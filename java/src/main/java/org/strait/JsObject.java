package org.strait;

import org.strait.internal.Args;
import org.strait.internal.Natives;
import org.strait.internal.JsProxyHandler;

import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A JavaScript object held from Java. Property reads convert the value as
 * {@link JsRuntime#eval} does (objects come back as JsObject, JsFunction,
 * JsArray or JsPromise; a wrapped Java object as itself); writes convert
 * Java values as function arguments do ({@link JsFunction#call}).
 *
 * <p>Any thread may use it; calls are serialized by the runtime's gate.
 * Two handles of the same JS object are {@code equals}. After the runtime
 * closed, every method throws {@code IllegalStateException("runtime closed")}.
 */
public class JsObject extends JsValue {
    /** Passed as a value, stands for JavaScript {@code undefined}. */
    public static final Object UNDEFINED = new Object() {
        @Override
        public String toString() {
            return "undefined";
        }
    };

    /** Made by the JNI layer (src/jni/value/from_java.c), inside the runtime. */
    JsObject(JsRuntime runtime, long handle) {
        super(runtime, handle);
    }

    /**
     * Takes an in-flight count of the runtime for one native call and
     * checks the value is live (JsProxyHandler's calls; pair with
     * {@code rt.leave()}). The methods here use {@link #enterUse}, which also
     * holds a use of the value.
     */
    final JsRuntime begin() {
        JsRuntime rt = runtime();
        rt.enter();
        try {
            checkLive();
            rt.drainIfPending();
        } catch (RuntimeException e) {
            rt.leave();
            throw e;
        }
        return rt;
    }

    /** this[key], converted to Java. @throws JsException if a getter throws */
    public Object get(String key) {
        Objects.requireNonNull(key, "key");
        JsRuntime rt = enterUse();
        try {
            return Natives.get(rt.peer, rt, handle, key);
        } finally {
            leaveUse(rt);
        }
    }

    /** this[key] = value (converted as a call argument). */
    public void set(String key, Object value) {
        Objects.requireNonNull(key, "key");
        JsRuntime rt = enterUse();
        try {
            Args a = Args.one(rt, value);
            try {
                a.hold();
                Natives.set(rt.peer, handle, key, a.vals, a.refs);
            } finally {
                a.unhold();
            }
        } finally {
            leaveUse(rt);
            Reference.reachabilityFence(value);
        }
    }

    /** {@code key in this}. */
    public boolean has(String key) {
        Objects.requireNonNull(key, "key");
        JsRuntime rt = enterUse();
        try {
            return Natives.has(rt.peer, handle, key);
        } finally {
            leaveUse(rt);
        }
    }

    /** {@code delete this[key]}; false when the property is not configurable. */
    public boolean delete(String key) {
        Objects.requireNonNull(key, "key");
        JsRuntime rt = enterUse();
        try {
            return Natives.delete(rt.peer, handle, key);
        } finally {
            leaveUse(rt);
        }
    }

    /**
     * The own enumerable string keys, as JavaScript's {@code Object.keys}
     * gives them: the engine's own Object.keys, captured when the runtime
     * was made, so a script that replaces {@code Object.keys} does not
     * change this. @throws JsException a Proxy trap threw
     */
    public List<String> keys() {
        JsRuntime rt = enterUse();
        try {
            return Arrays.asList(Natives.keys(rt.peer, handle));
        } finally {
            leaveUse(rt);
        }
    }

    /**
     * Calls the method this[name] with this object as {@code this}.
     * @throws JsException if it throws, or if the member is not a function
     */
    public Object invoke(String name, Object... args) {
        Objects.requireNonNull(name, "name");
        JsRuntime rt = enterUse();
        try {
            Args a = Args.pack(rt, false, null, args);
            Object r;
            try {
                a.hold();
                r = Natives.invokeMember(rt.peer, rt, handle, name, a.vals, a.refs, a.argc);
            } finally {
                a.unhold();
            }
            if (r == JsProxyHandler.ABSENT || r == JsProxyHandler.NOT_FUNCTION)
                throw new IllegalArgumentException("JS member '" + name + "' is not a function");
            return r;
        } finally {
            leaveUse(rt);
            Reference.reachabilityFence(args);
        }
    }

    /**
     * A Java implementation of the interface iface whose methods call this
     * object's members of the same name (see {@link JsRuntime} for threads).
     * A method the object lacks runs its Java default, or throws
     * {@code UnsupportedOperationException}.
     * @throws IllegalArgumentException iface is not an interface, or a
     *     member named like one of its methods is not a function
     */
    public <T> T as(Class<T> iface) {
        Objects.requireNonNull(iface, "iface");
        checkLive();
        return iface.cast(JsProxyHandler.implement(this, new Class<?>[] {iface}));
    }

    /** Same JS object (by identity) in the same runtime. */
    @Override
    public boolean equals(Object o) {
        return o instanceof JsValue && ((JsValue) o).handle == handle
                && ((JsValue) o).runtime() == runtime();
    }

    @Override
    public int hashCode() {
        return Long.hashCode(handle >>> 4);
    }
}
