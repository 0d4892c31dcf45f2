package org.strait.jscaller;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The Java caller frame of caller-sensitive JDK members called from JS.
 *
 * <p>A method annotated {@code @CallerSensitive} (AccessController.doPrivileged*,
 * Class.forName, MethodHandles.lookup, ...) asks the VM for the class that
 * called it. Called straight through JNI from a native thread there is none,
 * and several such methods crash the VM or throw on the null caller. The
 * bridge (org.strait.Bridge.invokeSensitive) calls them reflectively from
 * here instead, so the caller they see is this class.
 *
 * <p>This class sits alone in its own package and holds no state: a
 * {@code MethodHandles.lookup()} made from JS has full access to this class
 * and package-private access to this package only, not to org.strait.
 * Not API.
 */
public final class JsCaller {
    private JsCaller() {}

    /**
     * Calls m (a Method on recv, null for static, or a Constructor) with
     * args, as this class. A throw of the member itself arrives unwrapped,
     * as from a direct call.
     */
    public static Object invoke(Executable m, Object recv, Object[] args) throws Throwable {
        try {
            if (m instanceof Constructor) return ((Constructor<?>) m).newInstance(args);
            return ((Method) m).invoke(recv, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw cause != null ? cause : e;
        }
    }
}
