'use strict';
// Caller-sensitive JDK members (@CallerSensitive: they ask the VM for the
// class calling them) called from JS. A direct JNI call from the JS thread
// gives them no caller; some then crash the JVM (doPrivilegedWithCombiner),
// others throw a NullPointerException. The bridge calls them through a Java
// frame (org.strait.jscaller.JsCaller), which these specs observe.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

const C = java.lang.Class;
const Modifier = java.lang.reflect.Modifier;
const AC = java.security.AccessController;
const CS = 'jdk.internal.reflect.CallerSensitive';

// Every public caller-sensitive method of a public class in an exported
// package of java.base, found by reading the module's class files.
function callerSensitiveMethods() {
  const base = C.forName('java.lang.Object').getModule();
  const fs = java.nio.file.FileSystems.getFileSystem(java.net.URI.create('jrt:/'));
  const root = fs.getPath('/modules/java.base');
  const found = [];
  for (const pkg of base.getPackages()) {
    if (!base.isExported(pkg)) continue;
    const st = java.nio.file.Files.list(root.resolve(pkg.replace(/\./g, '/')));
    try {
      for (const p of st.toArray()) {
        const f = String(p.getFileName());
        if (!f.endsWith('.class')) continue;
        const c = C.forName(pkg + '.' + f.slice(0, -6), false, null);
        if (!Modifier.isPublic(c.getModifiers())) continue;
        for (const m of c.getDeclaredMethods()) {
          if (!Modifier.isPublic(m.getModifiers())) continue;
          for (const a of m.getDeclaredAnnotations())
            if (a.annotationType().getName() === CS) found.push(m);
        }
      }
    } finally {
      st.close();
    }
  }
  return found;
}

const point = new java.awt.Point(1, 2);
const lengthMethod = C.forName('java.lang.String').getMethod('length');
const runnable = C.forName('java.lang.Runnable');

// A receiver, and the Object argument that fits it, per declaring class of
// the instance members under test.
const receivers = {
  'java.lang.Class': { recv: C.forName('java.lang.String'), target: 'abc' },
  'java.lang.ClassLoader': { recv: java.lang.ClassLoader.getSystemClassLoader(), target: 'abc' },
  'java.lang.Thread': { recv: java.lang.Thread.currentThread(), target: 'abc' },
  'java.lang.Runtime': { recv: java.lang.Runtime.getRuntime(), target: 'abc' },
  'java.lang.Module': { recv: C.forName('java.lang.Object').getModule(), target: 'abc' },
  'java.lang.StackWalker': { recv: java.lang.StackWalker.getInstance(), target: 'abc' },
  'java.lang.reflect.Method': { recv: lengthMethod, target: 'abc' },
  'java.lang.reflect.AccessibleObject': { recv: lengthMethod, target: 'abc' },
  'java.lang.reflect.Field': { recv: C.forName('java.awt.Point').getField('x'), target: point },
  'java.lang.reflect.Constructor': {
    recv: C.forName('java.lang.StringBuilder').getConstructor(), target: 'abc',
  },
  'java.io.ObjectStreamClass': { recv: java.io.ObjectStreamClass.lookup(C.forName('java.lang.String')), target: 'abc' },
  'java.io.ObjectStreamField': { recv: new java.io.ObjectStreamField('f', java.lang.Integer.TYPE), target: 'abc' },
};

// A harmless argument per parameter type (target: the Object argument).
function sample(type, target) {
  switch (String(type.getTypeName())) {
    case 'boolean': return true;
    case 'byte': case 'short': case 'int': case 'long': return 3;
    case 'char': return 'a';
    case 'float': case 'double': return 1.5;
    case 'java.lang.String': return 'java.lang.String';
    case 'java.lang.Object': return target;
    case 'java.lang.Class': return runnable;
    case 'java.lang.ClassLoader': return java.lang.ClassLoader.getSystemClassLoader();
    case 'java.lang.Module': return C.forName('java.lang.Object').getModule();
    case 'java.lang.ModuleLayer': return java.lang.ModuleLayer.boot();
    case 'java.util.Locale': return java.util.Locale.ROOT;
    case 'java.util.ResourceBundle$Control':
      return java.util.ResourceBundle.Control.getControl(java.util.ResourceBundle.Control.FORMAT_DEFAULT);
    case 'java.lang.invoke.MethodHandle':
      return java.lang.invoke.MethodHandles.empty(java.lang.invoke.MethodType.methodType(java.lang.Void.TYPE));
    case 'java.lang.reflect.Method': return lengthMethod;
    case 'java.security.PrivilegedAction':
    case 'java.security.PrivilegedExceptionAction':
    case 'java.lang.reflect.InvocationHandler':
    case 'java.util.function.Consumer':
    case 'java.util.function.Function':
      return () => 42;
    case 'java.lang.Class[]': return [runnable];
    case 'java.security.Permission[]':
    case 'java.lang.reflect.AccessibleObject[]':
    case 'java.lang.Object[]':
      return [];
    default: return null;   // AccessControlContext, ResourceBundle, SecurityManager
  }
}

// What calling m with samples did: 'returned', or the Java exception class.
function callWithSamples(m) {
  const c = m.getDeclaringClass();
  const isStatic = Modifier.isStatic(m.getModifiers());
  const r = receivers[String(c.getName())] || {};
  const ps = m.getParameterTypes();
  const args = [];
  for (const p of ps) args.push(sample(p, r.target));
  const key = m.getName() + '(' + Array.from(ps, (p) => p.getTypeName()).join(',') + ')';
  const holder = isStatic ? Java.type(String(c.getName())) : r.recv;
  try {
    holder[key](...args);
    return 'returned';
  } catch (e) {
    if (!e.javaException) throw new Error(key + ' threw a non-Java error: ' + e);
    return String(e.javaException.getClass().getName());
  }
}

describe('caller-sensitive members', () => {
  it('run doPrivileged and doPrivilegedWithCombiner in every form with a JS action', () => {
    const forms = [
      ['doPrivileged(java.security.PrivilegedAction)', []],
      ['doPrivileged(java.security.PrivilegedAction,java.security.AccessControlContext)', [null]],
      ['doPrivileged(java.security.PrivilegedAction,java.security.AccessControlContext,java.security.Permission[])', [null, []]],
      ['doPrivileged(java.security.PrivilegedExceptionAction)', []],
      ['doPrivileged(java.security.PrivilegedExceptionAction,java.security.AccessControlContext)', [null]],
      ['doPrivileged(java.security.PrivilegedExceptionAction,java.security.AccessControlContext,java.security.Permission[])', [null, []]],
      ['doPrivilegedWithCombiner(java.security.PrivilegedAction)', []],
      ['doPrivilegedWithCombiner(java.security.PrivilegedAction,java.security.AccessControlContext,java.security.Permission[])', [null, []]],
      ['doPrivilegedWithCombiner(java.security.PrivilegedExceptionAction)', []],
      ['doPrivilegedWithCombiner(java.security.PrivilegedExceptionAction,java.security.AccessControlContext,java.security.Permission[])', [null, []]],
    ];
    for (const [key, rest] of forms) {
      let n = 0;
      expect(AC[key](() => 'ran ' + ++n, ...rest)).toBe('ran 1');
    }
    // the varargs form without the array
    expect(AC['doPrivileged(java.security.PrivilegedAction,java.security.AccessControlContext,java.security.Permission[])'](
      () => 8, null)).toBe(8);
  });

  it('give a throwing action\'s error back to JS', () => {
    const key = 'doPrivilegedWithCombiner(java.security.PrivilegedAction)';
    const e = thrown(() => AC[key](() => { throw new RangeError('inside'); }), Error);
    expect(String(e.message)).toMatch(/inside/);
  });

  it('see org.strait.jscaller.JsCaller as their caller', () => {
    const lookup = java.lang.invoke.MethodHandles.lookup();
    expect(String(lookup.lookupClass().getName())).toBe('org.strait.jscaller.JsCaller');
    // StackWalker.getCallerClass names the caller of its caller (JsCaller)
    expect(String(java.lang.StackWalker.getInstance(java.lang.StackWalker.Option.RETAIN_CLASS_REFERENCE)
      .getCallerClass().getName())).toBe('org.strait.internal.Bridge');
    // the lookup has no package access to the runtime's own classes
    const mt = java.lang.invoke.MethodType.methodType(java.lang.Integer.TYPE, C.forName('java.lang.Class'));
    const e = thrown(() => lookup.findStatic(C.forName('org.strait.internal.Bridge'), 'classIndex', mt), Error);
    expect(String(e.javaException.getClass().getName())).toBe('java.lang.IllegalAccessException');
  });

  it('resolve Class.forName(name) with the loader of the runtime\'s classes', () => {
    expect(String(C.forName('java.util.ArrayList').getName())).toBe('java.util.ArrayList');
    expect(String(C.forName('org.strait.JsRuntime').getName())).toBe('org.strait.JsRuntime');
    expect(C.forName('org.strait.JsRuntime').getClassLoader()).toBe(C.forName('org.strait.jscaller.JsCaller').getClassLoader());
  });

  it('throw the member\'s own exception, not the trampoline\'s wrapper', () => {
    const e = thrown(() => C.forName('no.such.Klass'), Error, /^java\.lang\.ClassNotFoundException: no\.such\.Klass$/);
    expect(e.javaException instanceof java.lang.ClassNotFoundException).toBe(true);
    expect(e.stack.indexOf('Java stack:') >= 0).toBe(true);
    // Method.invoke's own wrapper stays: that is what Method.invoke throws
    const charAt = C.forName('java.lang.String').getMethod('charAt', java.lang.Integer.TYPE);
    const w = thrown(() => charAt.invoke('abc', 9), Error, /InvocationTargetException/);
    expect(w.javaException.getCause() instanceof java.lang.StringIndexOutOfBoundsException).toBe(true);
  });

  it('refuse members of packages not exported to the caller with a clear error', () => {
    const e = thrown(() => Java.type('jdk.internal.reflect.Reflection').getCallerClass(), Error,
      /IllegalAccessException: .*does not export jdk\.internal\.reflect/);
    expect(e.javaException instanceof java.lang.IllegalAccessException).toBe(true);
    // sun.misc.Unsafe checks its caller's loader: an application class gets no Unsafe
    thrown(() => Java.type('sun.misc.Unsafe').getUnsafe(), Error, /^java\.lang\.SecurityException: Unsafe$/);
  });

  it('pass primitive arguments and results through the Java frame', () => {
    const p = new java.awt.Point(1, 2);
    const x = C.forName('java.awt.Point').getField('x');
    expect(x.getInt(p)).toBe(1);
    x.setInt(p, -5);
    expect(p.x).toBe(-5);
    x.setByte(p, -128);
    expect(x.getLong(p)).toBe(-128);
    x.setShort(p, 300);
    expect(x.getDouble(p)).toBe(300);
    x.setChar(p, 'a');
    expect(x.getInt(p)).toBe(97);
    expect(x.getFloat(p)).toBe(97);
    x.set(p, java.lang.Integer.valueOf(12));
    expect(x.get(p)).toBe(12);
    thrown(() => x.setBoolean(p, true), Error, /IllegalArgumentException/);
    thrown(() => x.getBoolean(p), Error, /IllegalArgumentException/);
    thrown(() => x.getChar(p), Error, /IllegalArgumentException/);
    const d = C.forName('java.lang.Double').getMethod('sum', java.lang.Double.TYPE, java.lang.Double.TYPE);
    expect(d.invoke(null, 0.5, 0.25)).toBe(0.75);
    expect(lengthMethod.invoke('abcd')).toBe(4);
    expect(C.forName('java.lang.StringBuilder').getConstructor(C.forName('java.lang.String'))
      .newInstance('sb').toString()).toBe('sb');
    expect(java.lang.reflect.Array.getLength(C.forName('java.lang.String').getMethods()) > 50).toBe(true);
  });

  it('call every public caller-sensitive method of java.base without crashing', () => {
    const all = callerSensitiveMethods();
    // the scan is not empty: it found the known ones
    const names = new Set(all.map((m) => String(m.getDeclaringClass().getName()) + '.' + m.getName()));
    for (const n of ['java.security.AccessController.doPrivilegedWithCombiner', 'java.lang.Class.forName',
      'java.lang.invoke.MethodHandles.lookup', 'java.util.ResourceBundle.getBundle', 'java.lang.reflect.Method.invoke'])
      expect(names.has(n)).toBe(true);
    expect(all.length >= 100).toBe(true);
    const outcome = {};
    let called = 0, returned = 0;
    for (const m of all) {
      // harmless with null, but prints a deprecation warning
      if (m.getName() === 'setSecurityManager') continue;
      const isStatic = Modifier.isStatic(m.getModifiers());
      if (!isStatic && !receivers[String(m.getDeclaringClass().getName())]) continue;
      const r = callWithSamples(m);
      outcome[m.toString()] = r;
      called++;
      if (r === 'returned') returned++;
    }
    // every static one and most instance ones were called; many succeeded
    expect(called >= 100).toBe(true);
    expect(returned >= 50).toBe(true);
    // a few whose outcome is known
    expect(outcome['public static java.lang.invoke.MethodHandles$Lookup java.lang.invoke.MethodHandles.lookup()']).toBe('returned');
    expect(outcome['public static java.lang.ClassLoader java.lang.ClassLoader.getSystemClassLoader()']).toBe('returned');
    expect(outcome['public java.lang.ClassLoader java.lang.Thread.getContextClassLoader()']).toBe('returned');
    expect(outcome['public static java.lang.System$Logger java.lang.System.getLogger(java.lang.String)']).toBe('returned');
    expect(outcome['public void java.lang.Module.addUses(java.lang.Class)'] ||
      outcome['public java.lang.Module java.lang.Module.addUses(java.lang.Class)']).toBe('java.lang.IllegalCallerException');
  });

  it('keep working after many trampolined calls', () => {
    let s = 0;
    const f = AC['doPrivilegedWithCombiner(java.security.PrivilegedAction)'];
    for (let i = 0; i < 2000; i++) s += f(() => i);
    expect(s).toBe(1999 * 2000 / 2);
  });
});
