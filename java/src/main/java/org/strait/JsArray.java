package org.strait;

import org.strait.internal.Args;
import org.strait.internal.JsProxyHandler;
import org.strait.internal.Natives;

import java.lang.ref.Reference;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * A JavaScript array held from Java, and a live {@code List<Object>} over
 * it: {@link #get(int)}, {@link #set(int, Object)}, {@link #add(Object)},
 * {@link #remove(int)}, {@link #size} and iteration read and write the JS
 * array itself, so JS sees every write. This is what a JS array passed where
 * Java expects {@code Object}, {@code List}, {@code Collection} or
 * {@code Iterable} arrives as. Elements convert as {@link JsObject#get}
 * converts values; written values as function arguments do.
 *
 * <p>It is not a {@link JsObject}: {@code Map.remove(Object)} and
 * {@code List.remove(Object)} cannot both be implemented by one class, so
 * JsArray extends {@link JsValue} and has the same JavaScript-flavoured
 * methods as JsObject ({@link #get(String)}, {@link #set(String, Object)},
 * {@link #has}, {@link #delete}, {@link #keys}, {@link #invoke}, {@link #as}).
 * As before, {@link #get(int)} past the end is null (JS {@code undefined})
 * and {@link #set(int, Object)} past the end grows the array as JS does;
 * {@link #equals} and {@link #hashCode} are identity of the JS array (two
 * handles of one array are equal), not the List contract's element
 * comparison. Inserting or removing in the middle uses the array's
 * {@code splice}.
 *
 * <p>Same threading rules as {@link JsObject}.
 */
public final class JsArray extends JsValue implements List<Object>, RandomAccess {
    JsArray(JsRuntime runtime, long handle) {
        super(runtime, handle);
    }

    /** The array's length. */
    @Override
    public int size() {
        JsRuntime rt = enterUse();
        try {
            long n = Natives.length(rt.peer, handle);
            return n > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) n;
        } finally {
            leaveUse(rt);
        }
    }

    /** this[index] converted to Java (null past the end, as undefined). */
    @Override
    public Object get(int index) {
        if (index < 0) throw new IndexOutOfBoundsException("index " + index);
        JsRuntime rt = enterUse();
        try {
            return Natives.getAt(rt.peer, rt, handle, index);
        } finally {
            leaveUse(rt);
        }
    }

    /**
     * this[index] = value (the array grows as in JS); returns the element
     * that was there (null past the end). Before List, this returned void.
     * @throws JsException (TypeError) when JS refuses the assignment, as strict JS
     *     does (a frozen, sealed or non-extensible array, a read-only or getter-only
     *     index, a Proxy whose set trap returns false)
     */
    @Override
    public Object set(int index, Object value) {
        Object old = get(index);
        setAt(index, value);
        return old;
    }

    private void setAt(int index, Object value) {
        if (index < 0) throw new IndexOutOfBoundsException("index " + index);
        JsRuntime rt = enterUse();
        try {
            Args a = Args.one(rt, value);
            try {
                a.hold();
                Natives.setAt(rt.peer, handle, index, a.vals, a.refs);
            } finally {
                a.unhold();
            }
        } finally {
            leaveUse(rt);
            Reference.reachabilityFence(value);
        }
    }

    /** A Java copy of the elements, each converted to Java. */
    public List<Object> toList() {
        int n = size();
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(get(i));
        return out;
    }

    // ---- java.util.List<Object>, live ----

    /** The List operations AbstractList derives from get/set/add/remove/size. */
    private final List<Object> view = new AbstractList<>() {
        @Override public Object get(int i) {
            if (i >= JsArray.this.size()) throw new IndexOutOfBoundsException("index " + i);
            return JsArray.this.get(i);
        }
        @Override public Object set(int i, Object v) { return JsArray.this.set(i, v); }
        @Override public void add(int i, Object v) { JsArray.this.add(i, v); }
        @Override public Object remove(int i) { return JsArray.this.remove(i); }
        @Override public int size() { return JsArray.this.size(); }
    };

    @Override public boolean isEmpty() { return size() == 0; }
    @Override public boolean contains(Object o) { return view.contains(o); }
    @Override public Iterator<Object> iterator() { checkLive(); return view.iterator(); }
    @Override public Object[] toArray() { return view.toArray(); }
    @Override public <T> T[] toArray(T[] a) { return view.toArray(a); }

    /** this[this.length] = value (two steps: like ArrayList, not atomic across threads). */
    @Override
    public boolean add(Object value) {
        setAt(size(), value);
        return true;
    }

    /** this.splice(index, 0, value). */
    @Override
    public void add(int index, Object value) {
        int n = size();
        if (index < 0 || index > n) throw new IndexOutOfBoundsException("index " + index + ", size " + n);
        if (index == n) setAt(n, value);
        else invoke("splice", index, 0, value);
    }

    @Override public boolean remove(Object o) { return view.remove(o); }

    /** this.splice(index, 1); returns the element removed. */
    @Override
    public Object remove(int index) {
        int n = size();
        if (index < 0 || index >= n) throw new IndexOutOfBoundsException("index " + index + ", size " + n);
        Object old = get(index);
        invoke("splice", index, 1);
        return old;
    }

    @Override public boolean containsAll(Collection<?> c) { return view.containsAll(c); }
    @Override public boolean addAll(Collection<?> c) { return view.addAll(c); }
    @Override public boolean addAll(int index, Collection<?> c) { return view.addAll(index, c); }
    @Override public boolean removeAll(Collection<?> c) { return view.removeAll(c); }
    @Override public boolean retainAll(Collection<?> c) { return view.retainAll(c); }

    /** this.length = 0. */
    @Override public void clear() { set("length", 0); }

    @Override public int indexOf(Object o) { return view.indexOf(o); }
    @Override public int lastIndexOf(Object o) { return view.lastIndexOf(o); }
    @Override public ListIterator<Object> listIterator() { checkLive(); return view.listIterator(); }
    @Override public ListIterator<Object> listIterator(int index) { checkLive(); return view.listIterator(index); }
    @Override public List<Object> subList(int from, int to) { checkLive(); return view.subList(from, to); }

    // ---- the JavaScript-flavoured methods of JsObject, same meaning ----

    /** this[key], converted to Java. @throws JsException if a getter throws */
    public Object get(String key) {
        return getMember(key);
    }

    /**
     * this[key] = value (converted as a call argument), as strict JS assigns.
     * @throws JsException (TypeError) when JS refuses the assignment (see {@link #set(int, Object)})
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

    /** The own enumerable string keys ("0", "1", ...), as {@link JsObject#keys}. */
    public List<String> keys() {
        return ownKeys();
    }

    /** Calls the method this[name] with this array as {@code this}, as {@link JsObject#invoke}. */
    public Object invoke(String name, Object... args) {
        return invokeMember(name, args);
    }

    /** An implementation of iface by this array's members, as {@link JsObject#as}. */
    public <T> T as(Class<T> iface) {
        Objects.requireNonNull(iface, "iface");
        checkLive();
        return iface.cast(JsProxyHandler.implement(this, new Class<?>[] {iface}));
    }

    /** Same JS array (by identity) in the same runtime. */
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
