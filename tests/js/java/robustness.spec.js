'use strict';
// Robustness: every public method and constructor of a few dozen JDK
// classes, called with arguments of random JS types. The run must end with
// JS exceptions only: no crash, no pending Java exception (each call after
// a failure still works), and the runtime still answers afterwards.
//
// Skipped, because they would harm the test process rather than test the
// bridge (documented here and in the report):
//   - System: exit, setIn/setOut/setErr, load/loadLibrary, setProperty,
//     setProperties, clearProperty, setSecurityManager, console,
//     inheritedChannel (terminal/stdio state), runFinalization
//   - Runtime: exit, halt, exec, load, loadLibrary, addShutdownHook,
//     removeShutdownHook
//   - every class: wait (blocks), notify/notifyAll (no monitor: useless)
//   - java.lang.Thread entirely (sleep, join, stop, suspend, interrupt of
//     the main thread); anything reading System.in (never passed)
//   - numbers in the pool stay small, so no call allocates gigabytes
const { describe, it, expect } = require('../runner');

const SKIP = {
  'java.lang.System': ['exit', 'setIn', 'setOut', 'setErr', 'load', 'loadLibrary', 'setProperty',
    'setProperties', 'clearProperty', 'setSecurityManager', 'console', 'inheritedChannel', 'runFinalization'],
  'java.lang.Runtime': ['exit', 'halt', 'exec', 'load', 'loadLibrary', 'addShutdownHook', 'removeShutdownHook'],
  '*': ['wait', 'notify', 'notifyAll'],
};

const CLASSES = [
  'java.lang.Math', 'java.lang.StrictMath', 'java.lang.Integer', 'java.lang.Long', 'java.lang.Double',
  'java.lang.Float', 'java.lang.Short', 'java.lang.Byte', 'java.lang.Character', 'java.lang.Boolean',
  'java.lang.String', 'java.lang.StringBuilder', 'java.lang.StringBuffer', 'java.lang.Object',
  'java.lang.System', 'java.lang.Runtime',
  'java.util.ArrayList', 'java.util.LinkedList', 'java.util.HashMap', 'java.util.TreeMap',
  'java.util.HashSet', 'java.util.TreeSet', 'java.util.ArrayDeque', 'java.util.PriorityQueue',
  'java.util.Arrays', 'java.util.Collections', 'java.util.Objects', 'java.util.Optional',
  'java.util.BitSet', 'java.util.UUID', 'java.util.StringJoiner', 'java.util.Random',
  'java.util.regex.Pattern',
  'java.time.Duration', 'java.time.Instant', 'java.time.LocalDate', 'java.time.LocalTime',
  'java.time.LocalDateTime', 'java.time.Period', 'java.time.ZoneOffset', 'java.time.Year',
  'java.time.YearMonth', 'java.time.DayOfWeek', 'java.time.Month',
  'java.nio.ByteBuffer', 'java.nio.CharBuffer', 'java.nio.IntBuffer', 'java.nio.ByteOrder',
  'java.nio.charset.Charset',
];

// Instances for instance methods of classes without a public no-arg constructor.
function sampleOf(name) {
  switch (name) {
    case 'java.lang.Runtime': return java.lang.Runtime.getRuntime();
    case 'java.lang.Integer': case 'java.lang.Long': case 'java.lang.Double': case 'java.lang.Float':
    case 'java.lang.Short': case 'java.lang.Byte': case 'java.lang.Character': case 'java.lang.Boolean':
    case 'java.lang.String':
      return null;           // these cross as JS primitives: no wrapper to call on
    case 'java.util.Optional': return java.util.Optional.of('x');
    case 'java.util.UUID': return java.util.UUID.fromString('123e4567-e89b-12d3-a456-426614174000');
    case 'java.util.StringJoiner': return new java.util.StringJoiner(',');
    case 'java.util.regex.Pattern': return java.util.regex.Pattern.compile('a+');
    case 'java.time.Duration': return java.time.Duration.ofSeconds(5);
    case 'java.time.Instant': return java.time.Instant.ofEpochSecond(1000);
    case 'java.time.LocalDate': return java.time.LocalDate.of(2020, 2, 29);
    case 'java.time.LocalTime': return java.time.LocalTime.of(12, 30);
    case 'java.time.LocalDateTime': return java.time.LocalDateTime.of(2020, 1, 1, 0, 0);
    case 'java.time.Period': return java.time.Period.ofDays(3);
    case 'java.time.ZoneOffset': return java.time.ZoneOffset.ofHours(2);
    case 'java.time.Year': return java.time.Year.of(2024);
    case 'java.time.YearMonth': return java.time.YearMonth.of(2024, 5);
    case 'java.time.DayOfWeek': return java.time.DayOfWeek.MONDAY;
    case 'java.time.Month': return java.time.Month.MAY;
    case 'java.nio.ByteBuffer': return java.nio.ByteBuffer.allocate(16);
    case 'java.nio.CharBuffer': return java.nio.CharBuffer.allocate(16);
    case 'java.nio.IntBuffer': return java.nio.IntBuffer.allocate(16);
    case 'java.nio.ByteOrder': return java.nio.ByteOrder.BIG_ENDIAN;
    case 'java.nio.charset.Charset': return java.nio.charset.Charset.forName('UTF-8');
    case 'java.lang.System': case 'java.lang.Math': case 'java.lang.StrictMath': case 'java.util.Arrays':
    case 'java.util.Collections': case 'java.util.Objects':
      return null;
    default: return undefined;      // use the no-arg constructor
  }
}

// Deterministic pseudo-random numbers (xorshift), so failures reproduce.
let seed = 0x2545f491;
function rnd(n) {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed % n;
}

function pool() {
  return [
    0, 1, -1, 3, 7, 1.5, -2.5, NaN, Infinity, -0, 2 ** 40, 'x', '', 'abc', 'é\ud800', true, false,
    null, undefined, 12n, 2n ** 70n, [], [1, 2], ['a', 'b'], [1, 'a', null], {}, { a: 1 },
    () => 1, Symbol('s'), new java.util.ArrayList(), new java.lang.Object(), Java.array('int', 2),
    Java.array('java.lang.String', 1), java.time.LocalDate.of(2000, 1, 1), new java.lang.StringBuilder('q'),
    java.util.Locale.ROOT,
  ];
}

describe('robustness', () => {
  it('survives every public member of the JDK sample with random arguments', () => {
    const stats = { calls: 0, ok: 0, jsErrors: 0, javaErrors: 0, members: 0, classes: 0 };
    const values = pool();
    const Modifier = java.lang.reflect.Modifier;
    for (const name of CLASSES) {
      const C = Java.type(name);
      const cls = java.lang.Class.forName(name);
      stats.classes++;
      const skip = (SKIP[name] || []).concat(SKIP['*']);
      let inst = sampleOf(name);
      if (inst === undefined) {
        try {
          inst = new C();
        } catch (e) {
          inst = null;
        }
      }
      const members = [];
      for (const m of cls.getMethods()) members.push(m);
      for (const k of cls.getConstructors()) members.push(k);
      for (const m of members) {
        const isCtor = m instanceof java.lang.reflect.Constructor;
        const mname = isCtor ? '<init>' : m.getName();
        if (skip.indexOf(mname) >= 0) continue;
        const isStatic = !isCtor && Modifier.isStatic(m.getModifiers());
        if (!isCtor && !isStatic && !inst) continue;
        stats.members++;
        const np = m.getParameterCount();
        for (let round = 0; round < 4; round++) {
          const n = round === 3 ? rnd(4) : np;
          const args = [];
          for (let i = 0; i < n; i++) args.push(values[rnd(values.length)]);
          stats.calls++;
          try {
            if (isCtor) new C(...args);
            else if (isStatic) C[mname](...args);
            else C.prototype[mname].apply(inst, args);
            stats.ok++;
          } catch (e) {
            if (!(e instanceof Error)) throw new Error(name + '.' + mname + ' threw a non-Error: ' + String(e));
            if (e.javaException !== undefined) stats.javaErrors++;
            else stats.jsErrors++;
          }
        }
      }
    }
    // the runtime still answers and no Java exception is pending
    expect(java.lang.Integer.parseInt('12')).toBe(12);
    expect(new java.util.ArrayList([1]).size()).toBe(1);
    expect(stats.classes).toBeGreaterThanOrEqual(40);
    expect(stats.calls).toBeGreaterThan(4000);
    console.log('robustness: ' + JSON.stringify(stats));
  }, 120000);
});
