package org.strait;

import org.strait.internal.Args;
import org.strait.internal.Natives;

import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;

/** A JavaScript array held from Java. Same threading rules as {@link JsObject}. */
public final class JsArray extends JsObject {
    JsArray(JsRuntime runtime, long handle) {
        super(runtime, handle);
    }

    /** The array's length. */
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
    public Object get(int index) {
        if (index < 0) throw new IndexOutOfBoundsException("index " + index);
        JsRuntime rt = enterUse();
        try {
            return Natives.getAt(rt.peer, rt, handle, index);
        } finally {
            leaveUse(rt);
        }
    }

    /** this[index] = value (the array grows as in JS). */
    public void set(int index, Object value) {
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
}
