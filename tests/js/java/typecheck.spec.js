'use strict';
// Type confusion at the JS -> Java boundary: no Java object reaches a JNI
// call unless it is an instance of the declared type of its slot. The
// cases are generated from the JDK's own reflection data: for every public
// method and constructor of a set of classes and every reference parameter
// (a final class, an abstract class, an interface, BigInteger, Number,
// CharSequence, List, Map, Comparable, arrays, ...), each wrapper of a pool
// that is not an instance of the parameter's type is passed there through
// an explicit signature (one member: no overload resolution in between),
// and for receivers every instance method is called on wrappers of
// unrelated classes. Each rejected call must be a TypeError naming the
// member and the position; none may run Java (the old bridge crashed the
// process on BigInteger.ONE.or(list) and returned garbage for
// BigInteger.ONE['add(java.math.BigInteger)'](list)).
const { describe, it, expect } = require('../runner');

const Cls = (n) => java.lang.Class.forName(n);
const Modifier = java.lang.reflect.Modifier;

// Wrappers of unrelated classes (each is skipped where it would fit).
const pool = () => [
  new java.lang.Object(), new java.util.ArrayList(), new java.lang.StringBuilder(), java.math.BigInteger.ONE,
  new java.util.HashMap(), java.util.concurrent.TimeUnit.SECONDS, java.time.Duration.ZERO,
  Java.to([1], 'int[]'), Java.to(['a'], 'java.lang.String[]'), Java.to([new java.lang.Object()], 'java.lang.Object[]'),
];

// A JS value every parameter type accepts without running anything.
function neutral(t) {
  if (!t.isPrimitive()) return null;
  const n = t.getName();
  return n === 'boolean' ? false : n === 'char' ? 'a' : 0;
}

function sigKey(name, types) {
  const parts = [];
  for (let i = 0; i < types.length; i++) parts.push(types[i].getTypeName());
  return name + '(' + parts.join(',') + ')';
}

// Runs call(); returns a problem description, or null when it threw a
// TypeError whose message contains every string of `want`.
function expectRejected(label, call, want) {
  let err;
  try {
    call();
  } catch (e) {
    err = e;
  }
  if (err === undefined) return label + ': accepted';
  if (!(err instanceof TypeError)) return label + ': ' + (err && err.name) + ': ' + (err && err.message);
  for (const w of want) {
    if (String(err.message).indexOf(w) < 0) return label + ': message lacks ' + JSON.stringify(w) + ': ' + err.message;
  }
  return null;
}

// For each reference parameter position of exec (Method / Constructor)
// and each pool wrapper not an instance of its type: invoke(args) must be
// rejected naming `member` and the position. Adds problems to out.
function sweepParams(exec, member, invoke, out, counter) {
  const types = exec.getParameterTypes();
  const n = types.length;
  const varargs = exec.isVarArgs();
  for (let i = 0; i < n; i++) {
    const t = types[i];
    if (t.isPrimitive() || t.getName() === 'java.lang.Object') continue;
    for (const w of pool()) {
      if (t.isInstance(w)) continue;
      // a varargs slot also takes a lone element of its component type
      if (varargs && i === n - 1 && t.getComponentType().isInstance(w)) continue;
      const args = [];
      for (let j = 0; j < n; j++) args.push(j === i ? w : neutral(types[j]));
      counter.n++;
      const p = expectRejected(member + ' argument ' + (i + 1) + ' <- ' + w.getClass().getName(),
                               () => invoke(args), [exec.getName().replace(/.*\./, ''), 'argument ' + (i + 1)]);
      if (p) out.push(p);
    }
  }
  // varargs element: one more argument of a type the component rejects
  if (varargs) {
    const comp = types[n - 1].getComponentType();
    if (!comp.isPrimitive() && comp.getName() !== 'java.lang.Object') {
      for (const w of pool()) {
        if (comp.isInstance(w)) continue;
        const args = [];
        for (let j = 0; j < n - 1; j++) args.push(neutral(types[j]));
        args.push(comp.isPrimitive() ? 0 : null, w);
        counter.n++;
        const p = expectRejected(member + ' varargs element <- ' + w.getClass().getName(), () => invoke(args),
                                 [exec.getName().replace(/.*\./, ''), 'argument ' + (n + 1)]);
        if (p) out.push(p);
      }
    }
  }
}

const STATIC_CLASSES = [
  'java.math.BigInteger', 'java.util.Collections', 'java.util.Objects', 'java.util.Arrays', 'java.lang.String',
  'java.lang.Integer', 'java.lang.Character', 'java.util.List', 'java.util.Map', 'java.util.EnumSet',
  'java.nio.file.Paths', 'java.lang.invoke.MethodType', 'java.util.regex.Pattern', 'java.util.Optional',
  'java.time.Duration', 'java.time.LocalDate', 'java.util.stream.Stream', 'java.lang.Math',
];

// Receivers: a final class, abstract-class and interface-typed members,
// maps, builders, enums.
const receivers = () => [
  java.math.BigInteger.ONE, new java.lang.StringBuilder('x'), new java.util.ArrayList(), new java.util.HashMap(),
  new java.util.TreeMap(), java.time.Duration.ZERO, java.util.concurrent.TimeUnit.SECONDS, new java.util.Random(1),
  java.util.regex.Pattern.compile('a'), new java.util.concurrent.atomic.AtomicReference(),
];

describe('type checks at the JNI boundary', () => {
  it('the reported crashes are TypeErrors now', () => {
    const list = new java.util.ArrayList();
    expect(() => java.math.BigInteger.ONE.or(list)).toThrow(/BigInteger\.or.* argument 1: cannot convert java\.util\.ArrayList to java\.math\.BigInteger/);
    expect(() => java.math.BigInteger.ONE['add(java.math.BigInteger)'](list)).toThrow(/add\(java\.math\.BigInteger\) argument 1/);
    // still accepted: the right class, and subclasses / implementations
    expect(String(java.math.BigInteger.ONE.or(java.math.BigInteger.TWO))).toBe('3');
    expect(new java.util.ArrayList(new java.util.LinkedList()).size()).toBe(0);
  });

  it('static method arguments (explicit signatures, generated)', () => {
    const out = [], counter = { n: 0 };
    for (const cn of STATIC_CLASSES) {
      const C = Java.type(cn);
      const ms = Cls(cn).getMethods();
      for (let k = 0; k < ms.length; k++) {
        const m = ms[k];
        if (!Modifier.isStatic(m.getModifiers()) || m.getDeclaringClass().getName() !== cn) continue;
        const fn = C[sigKey(m.getName(), m.getParameterTypes())];
        sweepParams(m, cn + '.' + m.getName(), (args) => fn(...args), out, counter);
      }
    }
    expect(out).toEqual([]);
    expect(counter.n).toBeGreaterThan(300);
  });

  it('constructor arguments (explicit signatures and resolved, generated)', () => {
    const out = [], counter = { n: 0 };
    const classes = ['java.math.BigInteger', 'java.math.BigDecimal', 'java.util.ArrayList', 'java.util.HashMap',
                     'java.util.TreeMap', 'java.util.TreeSet', 'java.lang.StringBuilder', 'java.lang.Thread',
                     'java.util.PriorityQueue', 'java.util.concurrent.atomic.AtomicReference', 'java.io.File'];
    for (const cn of classes) {
      const C = Java.type(cn);
      const ks = Cls(cn).getConstructors();
      for (let k = 0; k < ks.length; k++) {
        const ctor = ks[k];
        const sig = sigKey('new', ctor.getParameterTypes());
        const f = C[sig];
        sweepParams(ctor, 'new ' + cn, (args) => f(...args), out, counter);
        sweepParams(ctor, 'new ' + cn, (args) => new f(...args), out, counter);
        // one-constructor groups convert without resolution: the same check
        if (ks.length === 1) sweepParams(ctor, 'new ' + cn, (args) => new C(...args), out, counter);
      }
    }
    expect(out).toEqual([]);
    expect(counter.n).toBeGreaterThan(100);
  });

  it('instance method arguments (explicit signatures, generated)', () => {
    const out = [], counter = { n: 0 };
    for (const r of receivers()) {
      const ms = r.getClass().getMethods();
      for (let k = 0; k < ms.length; k++) {
        const m = ms[k];
        if (Modifier.isStatic(m.getModifiers()) || m.isBridge()) continue;
        let fn;
        try {
          fn = r[sigKey(m.getName(), m.getParameterTypes())];
        } catch (e) {
          continue;      // a method the bridge lists under a more specific signature
        }
        sweepParams(m, r.getClass().getName() + '.' + m.getName(), (args) => fn.apply(r, args), out, counter);
      }
    }
    expect(out).toEqual([]);
    expect(counter.n).toBeGreaterThan(300);
  });

  it('receivers of every instance method (call on a wrapper of another class, generated)', () => {
    const out = [];
    let n = 0;
    const rs = receivers();
    for (const r of rs) {
      const cn = r.getClass().getName();
      const ms = r.getClass().getMethods();
      for (let k = 0; k < ms.length; k++) {
        const m = ms[k];
        if (Modifier.isStatic(m.getModifiers())) continue;
        const byName = r[m.getName()];
        let bySig = null;
        try {
          bySig = r[sigKey(m.getName(), m.getParameterTypes())];
        } catch (e) { /* listed under a more specific signature */ }
        const types = m.getParameterTypes();
        const args = [];
        for (let j = 0; j < types.length; j++) args.push(neutral(types[j]));
        for (const other of pool().concat(rs)) {
          if (m.getDeclaringClass().isInstance(other) || r.getClass().isInstance(other)) continue;
          const want = [m.getName(), 'receiver is a ' + other.getClass().getName()];
          n++;
          let p = expectRejected(cn + '.' + m.getName() + ' on ' + other.getClass().getName(),
                                 () => byName.apply(other, args), want);
          if (p) out.push(p);
          if (bySig) {
            p = expectRejected(cn + '.' + m.getName() + ' (signature) on ' + other.getClass().getName(),
                               () => bySig.apply(other, args), want);
            if (p) out.push(p);
          }
        }
      }
    }
    expect(out).toEqual([]);
    expect(n).toBeGreaterThan(500);
  });

  it('Java array element writes (generated over element types)', () => {
    const out = [];
    const types = ['java.math.BigInteger', 'java.lang.Number', 'java.lang.CharSequence', 'java.util.List',
                   'java.util.Map', 'java.lang.Comparable', 'java.lang.Runnable', 'java.util.AbstractList',
                   'java.lang.String', 'java.lang.Integer', 'java.lang.Object[]', 'java.lang.String[]', 'int[]'];
    for (const tn of types) {
      const arr = Java.to([null], tn + '[]');
      const comp = arr.getClass().getComponentType();
      for (const w of pool()) {
        if (comp.isInstance(w)) continue;
        const p = expectRejected(tn + '[] element <- ' + w.getClass().getName(), () => { arr[0] = w; },
                                 [tn + '[] element 0: cannot convert']);
        if (p) out.push(p);
        if (arr[0] !== null) out.push(tn + '[]: element changed to ' + arr[0]);
      }
    }
    expect(out).toEqual([]);
    // Object[] still takes anything, String[] in Object[] stays a String[]
    const objs = Java.to([null], 'java.lang.Object[]');
    objs[0] = new java.util.ArrayList();
    expect(objs[0] instanceof java.util.ArrayList).toBe(true);
  });

  it('values returned by JS implementations of Java interfaces (generated)', () => {
    const out = [];
    let n = 0;
    const ifaces = ['java.lang.Iterable', 'java.lang.CharSequence', 'java.util.Collection', 'java.util.Map',
                    'java.nio.file.PathMatcher', 'java.util.Iterator', 'java.lang.Readable'];
    for (const iname of ifaces) {
      const I = Java.type(iname);
      const ms = Cls(iname).getMethods();
      for (let k = 0; k < ms.length; k++) {
        const m = ms[k];
        const rt = m.getReturnType();
        if (!Modifier.isAbstract(m.getModifiers()) || rt.isPrimitive() || rt.getName() === 'java.lang.Object') continue;
        if (m.getName() === 'toString') continue;
        for (const w of pool()) {
          if (rt.isInstance(w)) continue;
          const impl = new I({ [m.getName()]: () => w });
          const types = m.getParameterTypes();
          const args = [];
          for (let j = 0; j < types.length; j++) args.push(neutral(types[j]));
          n++;
          let err;
          try {
            impl[sigKey(m.getName(), types)](...args);
          } catch (e) {
            err = e;
          }
          const msg = String(err && err.message);
          if (!err || msg.indexOf(m.getName()) < 0 || msg.indexOf('must return') < 0)
            out.push(iname + '.' + m.getName() + ' returning ' + w.getClass().getName() + ': ' + msg);
        }
      }
    }
    expect(out).toEqual([]);
    expect(n).toBeGreaterThan(20);
  });
});
