package org.strait;

import org.strait.internal.Natives;
import org.strait.internal.JsProxyHandler;

import java.util.AbstractCollection;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * A JavaScript object held from Java. Property reads convert the value as
 * {@link JsRuntime#eval} does (objects come back as JsObject, JsFunction,
 * JsArray or JsPromise; a wrapped Java object as itself); writes convert
 * Java values as function arguments do ({@link JsFunction#call}).
 *
 * <p>It is also a live {@code Map<String,Object>} over the object's own
 * enumerable string keys, in JavaScript's order ({@code Object.keys}):
 * {@link #get(Object)}, {@link #put}, {@link #remove(Object)},
 * {@link #containsKey}, {@link #size}, {@link #keySet}, {@link #entrySet}
 * and {@link #values} read and write the JS object itself, so JS sees every
 * write. This is what a JS object passed where Java expects {@code Object}
 * or {@code Map} arrives as. The JS-flavoured methods keep their meaning:
 * {@link #get(String)} and {@link #has} see inherited properties too
 * ({@code this[key]}, {@code key in this}), the Map methods only own
 * enumerable ones. {@link #equals} and {@link #hashCode} stay identity of
 * the JS object (two handles of one object are equal), not the Map
 * contract's entry comparison: the entries of a live JS object can change
 * under any hash table holding it.
 *
 * <p>Any thread may use it; calls are serialized by the runtime's gate.
 * After the runtime closed, every method throws
 * {@code IllegalStateException("runtime closed")}.
 */
public class JsObject extends JsValue implements Map<String, Object> {
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
        return getMember(key);
    }

    /**
     * this[key] = value (converted as a call argument), as strict JS assigns.
     * @throws JsException (TypeError) when JS refuses the assignment (a frozen or
     *     non-extensible object, a read-only or getter-only property, a Proxy's set
     *     trap returning false), or a setter throws
     */
    public void set(String key, Object value) {
        setMember(key, value);
    }

    /** {@code key in this}. */
    public boolean has(String key) {
        return hasMember(key);
    }

    /** {@code delete this[key]}; false when the property is not configurable. */
    public boolean delete(String key) {
        return deleteMember(key);
    }

    /**
     * The own enumerable string keys, as JavaScript's {@code Object.keys}
     * gives them: the engine's own Object.keys, captured when the runtime
     * was made, so a script that replaces {@code Object.keys} does not
     * change this. @throws JsException a Proxy trap threw
     */
    public List<String> keys() {
        return ownKeys();
    }

    /**
     * Calls the method this[name] with this object as {@code this}.
     * @throws JsException if it throws, or if the member is not a function
     */
    public Object invoke(String name, Object... args) {
        return invokeMember(name, args);
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

    // ---- java.util.Map<String,Object>: own enumerable string keys ----

    /** The number of own enumerable string keys ({@code Object.keys(this).length}). */
    @Override
    public int size() {
        return keys().size();
    }

    @Override
    public boolean isEmpty() {
        return size() == 0;
    }

    /** True when key is a String naming an own enumerable property. */
    @Override
    public boolean containsKey(Object key) {
        if (!(key instanceof String)) return false;
        JsRuntime rt = enterUse();
        try {
            return Natives.valueOwnKey(rt.peer, handle, (String) key);
        } finally {
            leaveUse(rt);
        }
    }

    @Override
    public boolean containsValue(Object value) {
        return values().contains(value);
    }

    /**
     * The value of an own enumerable property, converted to Java; null when
     * key is not a String or names no such property (see {@link #get(String)}
     * for {@code this[key]} with inherited properties).
     */
    @Override
    public Object get(Object key) {
        return containsKey(key) ? get((String) key) : null;
    }

    /** {@code this[key] = value}; returns the previous own value (or null). */
    @Override
    public Object put(String key, Object value) {
        Object old = get((Object) key);
        set(key, value);
        return old;
    }

    /** {@code delete this[key]} of an own enumerable property; returns its value (or null). */
    @Override
    public Object remove(Object key) {
        if (!containsKey(key)) return null;
        Object old = get((String) key);
        delete((String) key);
        return old;
    }

    @Override
    public void putAll(Map<? extends String, ?> m) {
        for (Map.Entry<? extends String, ?> e : m.entrySet()) set(e.getKey(), e.getValue());
    }

    /** Deletes every own enumerable string key. */
    @Override
    public void clear() {
        for (String k : keys()) delete(k);
    }

    /** A live view of the own enumerable string keys; removing a key deletes the property. */
    @Override
    public Set<String> keySet() {
        checkLive();
        return new AbstractSet<>() {
            @Override public Iterator<String> iterator() { return new KeyIterator<>(k -> k); }
            @Override public int size() { return JsObject.this.size(); }
            @Override public boolean contains(Object o) { return containsKey(o); }
            @Override public boolean remove(Object o) { return containsKey(o) && delete((String) o); }
            @Override public void clear() { JsObject.this.clear(); }
        };
    }

    /** A live view of the values of the own enumerable string keys. */
    @Override
    public Collection<Object> values() {
        checkLive();
        return new AbstractCollection<>() {
            @Override public Iterator<Object> iterator() { return new KeyIterator<>(k -> get(k)); }
            @Override public int size() { return JsObject.this.size(); }
            @Override public void clear() { JsObject.this.clear(); }
        };
    }

    /** A live view of the entries; {@code setValue} writes the property. */
    @Override
    public Set<Map.Entry<String, Object>> entrySet() {
        checkLive();
        return new AbstractSet<>() {
            @Override public Iterator<Map.Entry<String, Object>> iterator() {
                return new KeyIterator<>(k -> new Entry(k, get(k)));
            }
            @Override public int size() { return JsObject.this.size(); }
            @Override public boolean contains(Object o) {
                if (!(o instanceof Map.Entry)) return false;
                Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
                return containsKey(e.getKey()) && Objects.equals(get((String) e.getKey()), e.getValue());
            }
            @Override public boolean remove(Object o) {
                if (!contains(o)) return false;
                return delete((String) ((Map.Entry<?, ?>) o).getKey());
            }
            @Override public void clear() { JsObject.this.clear(); }
        };
    }

    /**
     * Walks the keys as they were when iteration began (one Object.keys);
     * each element is read when reached; remove() deletes the property.
     */
    private final class KeyIterator<T> implements Iterator<T> {
        private final List<String> ks = keys();
        private final java.util.function.Function<String, T> map;
        private int next;
        private String last;

        KeyIterator(java.util.function.Function<String, T> map) {
            this.map = map;
        }

        @Override public boolean hasNext() { return next < ks.size(); }

        @Override public T next() {
            if (next >= ks.size()) throw new NoSuchElementException();
            last = ks.get(next++);
            return map.apply(last);
        }

        @Override public void remove() {
            if (last == null) throw new IllegalStateException("next() first");
            delete(last);
            last = null;
        }
    }

    /** An entry of the Map view: the value read when reached; setValue writes it. */
    private final class Entry implements Map.Entry<String, Object> {
        private final String key;
        private Object value;

        Entry(String key, Object value) {
            this.key = key;
            this.value = value;
        }

        @Override public String getKey() { return key; }
        @Override public Object getValue() { return value; }

        @Override public Object setValue(Object v) {
            Object old = value;
            set(key, v);
            value = v;
            return old;
        }

        @Override public boolean equals(Object o) {
            return o instanceof Map.Entry && key.equals(((Map.Entry<?, ?>) o).getKey())
                    && Objects.equals(value, ((Map.Entry<?, ?>) o).getValue());
        }

        @Override public int hashCode() { return key.hashCode() ^ Objects.hashCode(value); }

        @Override public String toString() { return key + "=" + value; }
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
