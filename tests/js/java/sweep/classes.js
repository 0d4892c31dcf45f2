'use strict';
// classes.js - what the interop sweep calls: the JDK classes (from the
// module image), their public members in a fixed order, a receiver for
// instance members, and a valid-looking sample for a parameter type.
//
//   listClasses()        public top-level classes of PACKAGES, sorted by name
//   membersOf(cls)       constructors, methods (inherited ones too) and fields,
//                        sorted by kind and signature, duplicates dropped
//   excluded(cls, m)     the exclude.js rule that keeps m from being called
//   receiverRecipe(cls)  how to make an instance: a hand-written sample, a
//                        constructor, a static factory or a static field
//                        whose arguments all have samples; null if none
//   Samples              per member: fresh samples by parameter type
//
// Everything goes through the bridge (reflection from JS), so building the
// plan exercises it too; only what these helpers call is ever called on a
// receiver or a sample outside the sweep's own calls.
const EXCLUDE = require('./exclude');

const PACKAGES = [
  'java.lang', 'java.util', 'java.util.concurrent', 'java.util.function', 'java.util.stream',
  'java.math', 'java.time', 'java.text', 'java.nio', 'java.io', 'java.net', 'java.util.regex',
  'java.security',
  // a few subpackages whose classes the ones above take and return
  'java.util.concurrent.atomic', 'java.util.concurrent.locks', 'java.time.format',
  'java.time.temporal', 'java.nio.charset',
];

const Class = java.lang.Class;
const Modifier = java.lang.reflect.Modifier;
const loader = java.lang.ClassLoader.getSystemClassLoader();
const classCache = new Map();

// The Class of a name, loaded without running its static initializer.
function classOf(name) {
  let c = classCache.get(name);
  if (c === undefined) {
    c = Class.forName(name, false, loader);
    classCache.set(name, c);
  }
  return c;
}

// Public top-level classes of PACKAGES (module java.base), sorted by name.
function listClasses() {
  const fs = java.nio.file.FileSystems.getFileSystem(java.net.URI.create('jrt:/'));
  const names = [];
  for (const p of PACKAGES) {
    const it = java.nio.file.Files.list(fs.getPath('/modules/java.base/' + p.replace(/\./g, '/'))).iterator();
    while (it.hasNext()) {
      const f = String(it.next().getFileName());
      if (!f.endsWith('.class') || f.indexOf('$') >= 0 || f.indexOf('-') >= 0) continue;
      const name = p + '.' + f.slice(0, -6);
      if (Modifier.isPublic(classOf(name).getModifiers())) names.push(name);
    }
  }
  return names.sort();
}

// The parameter list of an explicit signature: "java.lang.String,int[]".
function paramList(types) {
  const out = [];
  for (const t of types) out.push(String(t.getTypeName()));
  return out.join(',');
}

// A member: { kind: 'ctor' | 'method' | 'field', name, isStatic, types
// (Class[] of the parameters; a field: [its type]), sig (parameter list),
// key (unique in the class), isFinal (fields), ret (methods: return type),
// varargs }.
function membersOf(cls) {
  const out = [];
  const seen = new Set();
  const add = (m) => {
    if (seen.has(m.key)) return;
    seen.add(m.key);
    out.push(m);
  };
  const simple = String(cls.getSimpleName());
  for (const k of cls.getConstructors()) {
    const types = Array.from(k.getParameterTypes());
    const sig = paramList(types);
    add({ kind: 'ctor', name: simple, isStatic: true, types, sig, key: 'new ' + simple + '(' + sig + ')',
      varargs: k.isVarArgs() });
  }
  for (const m of cls.getMethods()) {
    const types = Array.from(m.getParameterTypes());
    const sig = paramList(types);
    const isStatic = Modifier.isStatic(m.getModifiers());
    const name = String(m.getName());
    add({ kind: 'method', name, isStatic, types, sig, key: (isStatic ? 'static ' : '') + name + '(' + sig + ')',
      ret: m.getReturnType(), varargs: m.isVarArgs() });
  }
  for (const f of cls.getFields()) {
    const mod = f.getModifiers();
    const isStatic = Modifier.isStatic(mod);
    const name = String(f.getName());
    const type = f.getType();
    add({ kind: 'field', name, isStatic, isFinal: Modifier.isFinal(mod), types: [type], sig: String(type.getTypeName()),
      key: (isStatic ? 'static field ' : 'field ') + name });
  }
  const rank = { ctor: 0, method: 1, field: 2 };
  out.sort((a, b) => (rank[a.kind] - rank[b.kind]) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return out;
}

// The exclude.js rule that applies to member m of cls, or null.
function excluded(cls, m) {
  const name = m.kind === 'ctor' ? '<init>' : m.name;
  for (const r of EXCLUDE) {
    const hit = r.names.some((n) => (n.endsWith('*') ? name.startsWith(n.slice(0, -1)) : n === name));
    if (!hit) continue;
    if (r.params && !r.params.test(m.sig)) continue;
    if (r.cls !== '*' && !classOf(r.cls).isAssignableFrom(cls)) continue;
    return r;
  }
  return null;
}

// Hand-written samples, in order: for a parameter of type T the first entry
// whose class is assignable to T gives the sample (fresh on each call).
// Entries are also receivers of exactly their class.
const TABLE = [
  ['java.util.ArrayList', () => { const l = new java.util.ArrayList(); l.add('a'); return l; }],
  ['java.util.HashMap', () => { const m = new java.util.HashMap(); m.put('a', 'b'); return m; }],
  ['java.util.HashSet', () => new java.util.HashSet()],
  ['java.util.ArrayDeque', () => new java.util.ArrayDeque()],
  ['java.util.TreeMap', () => new java.util.TreeMap()],
  ['java.util.TreeSet', () => new java.util.TreeSet()],
  ['java.util.concurrent.LinkedBlockingQueue', () => new java.util.concurrent.LinkedBlockingQueue()],
  ['java.util.concurrent.LinkedBlockingDeque', () => new java.util.concurrent.LinkedBlockingDeque()],
  ['java.util.concurrent.ConcurrentHashMap', () => new java.util.concurrent.ConcurrentHashMap()],
  ['java.util.Locale', () => java.util.Locale.ROOT],
  ['java.util.Random', () => new java.util.Random(1)],
  ['java.util.Date', () => new java.util.Date(0)],
  ['java.util.BitSet', () => new java.util.BitSet()],
  ['java.util.Optional', () => java.util.Optional.of('a')],
  ['java.util.UUID', () => new java.util.UUID(1, 2)],
  ['java.util.Scanner', () => new java.util.Scanner('a 1')],
  ['java.util.StringJoiner', () => new java.util.StringJoiner(',')],
  ['java.util.TimeZone', () => java.util.TimeZone.getTimeZone('UTC')],
  ['java.util.Calendar', () => java.util.Calendar.getInstance(java.util.TimeZone.getTimeZone('UTC'), java.util.Locale.ROOT)],
  ['java.util.Currency', () => java.util.Currency.getInstance('EUR')],
  ['java.util.Properties', () => new java.util.Properties()],
  ['java.util.regex.Pattern', () => java.util.regex.Pattern.compile('a+')],
  ['java.util.regex.Matcher', () => java.util.regex.Pattern.compile('a').matcher('aa')],
  ['java.util.concurrent.TimeUnit', () => java.util.concurrent.TimeUnit.SECONDS],
  ['java.util.concurrent.atomic.AtomicInteger', () => new java.util.concurrent.atomic.AtomicInteger(1)],
  ['java.util.concurrent.locks.ReentrantLock', () => new java.util.concurrent.locks.ReentrantLock()],
  ['java.util.concurrent.CompletableFuture', () => java.util.concurrent.CompletableFuture.completedFuture('a')],
  ['java.util.concurrent.ThreadPoolExecutor', () => java.util.concurrent.Executors.newFixedThreadPool(1)],
  ['java.util.concurrent.ForkJoinPool', () => new java.util.concurrent.ForkJoinPool(1)],
  ['java.util.Comparator', () => java.util.Comparator.naturalOrder()],
  ['java.util.stream.Stream', () => java.util.stream.Stream.of('a', 'b')],
  ['java.util.stream.IntStream', () => java.util.stream.IntStream.range(0, 3)],
  ['java.util.stream.LongStream', () => java.util.stream.LongStream.range(0, 3)],
  ['java.util.stream.DoubleStream', () => java.util.stream.DoubleStream.of(1.5)],
  ['java.util.stream.Collector', () => java.util.stream.Collectors.toList()],
  ['java.math.BigInteger', () => java.math.BigInteger.ONE],
  ['java.math.BigDecimal', () => java.math.BigDecimal.ONE],
  ['java.math.MathContext', () => java.math.MathContext.DECIMAL32],
  ['java.math.RoundingMode', () => java.math.RoundingMode.HALF_UP],
  ['java.time.Duration', () => java.time.Duration.ofSeconds(1)],
  ['java.time.Instant', () => java.time.Instant.ofEpochSecond(1)],
  ['java.time.LocalDate', () => java.time.LocalDate.of(2020, 2, 29)],
  ['java.time.LocalTime', () => java.time.LocalTime.of(12, 30)],
  ['java.time.LocalDateTime', () => java.time.LocalDateTime.of(2020, 1, 1, 0, 0)],
  ['java.time.ZonedDateTime', () => java.time.ZonedDateTime.of(java.time.LocalDateTime.of(2020, 1, 1, 0, 0), java.time.ZoneOffset.UTC)],
  ['java.time.OffsetDateTime', () => java.time.OffsetDateTime.of(java.time.LocalDateTime.of(2020, 1, 1, 0, 0), java.time.ZoneOffset.UTC)],
  ['java.time.ZoneOffset', () => java.time.ZoneOffset.ofHours(2)],
  ['java.time.Period', () => java.time.Period.ofDays(3)],
  ['java.time.Clock', () => java.time.Clock.fixed(java.time.Instant.ofEpochSecond(1), java.time.ZoneOffset.UTC)],
  ['java.time.temporal.ChronoUnit', () => java.time.temporal.ChronoUnit.DAYS],
  ['java.time.temporal.ChronoField', () => java.time.temporal.ChronoField.DAY_OF_MONTH],
  ['java.time.format.DateTimeFormatter', () => java.time.format.DateTimeFormatter.ISO_LOCAL_DATE],
  ['java.text.SimpleDateFormat', () => new java.text.SimpleDateFormat('yyyy', java.util.Locale.ROOT)],
  ['java.text.DecimalFormat', () => new java.text.DecimalFormat('0.#')],
  ['java.text.MessageFormat', () => new java.text.MessageFormat('{0}')],
  ['java.text.Collator', () => java.text.Collator.getInstance(java.util.Locale.ROOT)],
  ['java.text.BreakIterator', () => java.text.BreakIterator.getWordInstance(java.util.Locale.ROOT)],
  ['java.nio.ByteBuffer', () => java.nio.ByteBuffer.allocate(8)],
  ['java.nio.CharBuffer', () => java.nio.CharBuffer.wrap('abc')],
  ['java.nio.IntBuffer', () => java.nio.IntBuffer.allocate(4)],
  ['java.nio.ByteOrder', () => java.nio.ByteOrder.BIG_ENDIAN],
  ['java.nio.charset.Charset', () => java.nio.charset.StandardCharsets.UTF_8],
  ['java.nio.charset.CharsetEncoder', () => java.nio.charset.StandardCharsets.UTF_8.newEncoder()],
  ['java.nio.charset.CharsetDecoder', () => java.nio.charset.StandardCharsets.UTF_8.newDecoder()],
  ['java.io.File', () => new java.io.File('sweep-file')],
  ['java.io.ByteArrayInputStream', () => new java.io.ByteArrayInputStream(Java.array('byte', 4))],
  ['java.io.ByteArrayOutputStream', () => new java.io.ByteArrayOutputStream()],
  ['java.io.StringReader', () => new java.io.StringReader('ab')],
  ['java.io.StringWriter', () => new java.io.StringWriter()],
  ['java.io.PrintStream', () => new java.io.PrintStream(new java.io.ByteArrayOutputStream())],
  ['java.io.PrintWriter', () => new java.io.PrintWriter(new java.io.StringWriter())],
  ['java.io.FileDescriptor', () => new java.io.FileDescriptor()],
  ['java.net.URI', () => java.net.URI.create('sweep-uri')],
  ['java.net.URL', () => new java.net.URL('file:sweep-url')],
  ['java.net.InetAddress', () => java.net.InetAddress.getLoopbackAddress()],
  ['java.net.InetSocketAddress', () => new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 1)],
  ['java.nio.file.Path', () => java.nio.file.Path.of('sweep-path')],
  ['java.lang.Thread', () => new java.lang.Thread()],
  ['java.lang.ThreadGroup', () => new java.lang.ThreadGroup('sweep')],
  ['java.lang.Runtime', () => java.lang.Runtime.getRuntime()],
  ['java.lang.Class', () => classOf('java.lang.String')],
  ['java.lang.ClassLoader', () => loader],
  ['java.lang.StringBuilder', () => new java.lang.StringBuilder('ab')],
  ['java.lang.StringBuffer', () => new java.lang.StringBuffer('ab')],
  ['java.lang.Throwable', () => new java.lang.Exception('sweep')],
  ['java.lang.Object', () => new java.lang.Object()],
  ['java.security.MessageDigest', () => java.security.MessageDigest.getInstance('SHA-256')],
  ['java.security.SecureRandom', () => new java.security.SecureRandom()],
  ['java.security.KeyStore', () => java.security.KeyStore.getInstance('PKCS12')],
  ['java.security.Signature', () => java.security.Signature.getInstance('SHA256withRSA')],
  ['java.util.EnumMap', () => new java.util.EnumMap(classOf('java.util.concurrent.TimeUnit'))],
  ['java.util.concurrent.LinkedTransferQueue', () => new java.util.concurrent.LinkedTransferQueue()],
  ['java.util.concurrent.ConcurrentSkipListMap', () => new java.util.concurrent.ConcurrentSkipListMap()],
  ['java.util.LinkedList', () => new java.util.LinkedList()],
  ['java.io.RandomAccessFile', () => new java.io.RandomAccessFile('sweep-raf', 'rw')],
  ['java.io.ObjectInputStream', () => {
    const bytes = new java.io.ByteArrayOutputStream();
    new java.io.ObjectOutputStream(bytes).close();
    return new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()));
  }],
  ['java.text.CompactNumberFormat', () => java.text.NumberFormat.getCompactNumberInstance(java.util.Locale.ROOT, java.text.NumberFormat.Style.SHORT)],
  ['java.lang.Module', () => classOf('java.lang.Object').getModule()],
];

const BOXED = {
  'java.lang.Integer': 1, 'java.lang.Long': 1, 'java.lang.Short': 1, 'java.lang.Byte': 1,
  'java.lang.Double': 1.5, 'java.lang.Float': 1.5, 'java.lang.Number': 1, 'java.lang.Boolean': true,
  'java.lang.Character': 'a',
};
const PRIMITIVE = { int: 1, long: 1, short: 1, byte: 1, char: 'a', boolean: true, float: 1.5, double: 1.5 };
// Types whose values cross as JS strings.
const STRINGY = new Set(['java.lang.String', 'java.lang.CharSequence', 'java.lang.Comparable',
  'java.io.Serializable', 'java.lang.constant.Constable', 'java.lang.constant.ConstantDesc']);

// How a parameter of type T gets its sample: cached by type name for the
// whole run (the answer depends on T only), values made fresh per member.
const sampleKind = new Map();
let tableClasses = null;

function kindOf(t) {
  const name = String(t.getTypeName());
  let k = sampleKind.get(name);
  if (k !== undefined) return k;
  if (t.isPrimitive()) k = { primitive: PRIMITIVE[name] };
  else if (name in BOXED) k = { primitive: BOXED[name] };
  else if (name === 'java.lang.Object' || STRINGY.has(name)) k = { primitive: 'a' };
  else if (t.isArray()) k = { array: String(t.getComponentType().getTypeName()), primitive: t.getComponentType().isPrimitive() };
  else {
    if (!tableClasses) tableClasses = TABLE.map(([n]) => classOf(n));
    for (let i = 0; i < TABLE.length && !k; i++) if (t.isAssignableFrom(tableClasses[i])) k = { table: i };
    if (!k && isFunctional(t)) k = { fn: true };
    if (!k) k = { none: true };
  }
  sampleKind.set(name, k);
  return k;
}

// True for an interface with exactly one abstract method: a JS function
// is then a valid-looking argument.
function isFunctional(t) {
  if (!t.isInterface()) return false;
  let n = 0;
  for (const m of t.getMethods()) {
    if (!Modifier.isAbstract(m.getModifiers())) continue;
    const nm = String(m.getName());
    const pc = m.getParameterCount();
    if ((nm === 'equals' && pc === 1) || ((nm === 'hashCode' || nm === 'toString') && pc === 0)) continue;
    n++;
  }
  return n === 1;
}

// Fresh samples for one member's calls. get(T) is a value of type T or
// null; the same T gives the same object within the member.
class Samples {
  constructor() {
    this.made = new Map();
  }

  get(t) {
    const k = kindOf(t);
    const name = String(t.getTypeName());
    if ('primitive' in k && !k.array) return k.primitive;
    if (this.made.has(name)) return this.made.get(name);
    let v = null;
    try {
      if (k.array) {
        v = Java.array(k.array, k.primitive ? 2 : 1);
        if (k.array === 'java.lang.String') v[0] = 'a';
      } else if (k.table !== undefined) {
        v = TABLE[k.table][1]();
      } else if (k.fn) {
        v = function sweepSample() { return 0; };
      }
    } catch (e) {
      v = null;
    }
    this.made.set(name, v);
    return v;
  }

  // True when T has a non-null sample.
  has(t) {
    const k = kindOf(t);
    return !k.none;
  }
}

// A recipe that makes a fresh receiver of cls ({ how, make() }), or null.
// Tries the hand-written table, public constructors and static factories
// (fewest parameters first) whose parameters all have samples, static
// fields holding an instance, then table entries of a subclass or
// superclass whose value is an instance. Excluded members are never tried.
function receiverRecipe(cls, C) {
  const name = String(cls.getName());
  if (BOXED[name] !== undefined || STRINGY.has(name)) return null; // crosses as a JS value
  for (const [n, make] of TABLE) if (n === name) return { how: 'sample', make };
  const mod = cls.getModifiers();
  const members = membersOf(cls);
  const byArity = (a, b) => (a.types.length - b.types.length) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const usable = (m) => m.types.length <= 3 && m.types.every((t) => kindOf(t) && !kindOf(t).none) && !excluded(cls, m);
  const tries = [];
  if (!cls.isInterface() && !Modifier.isAbstract(mod)) {
    for (const m of members.filter((m) => m.kind === 'ctor' && usable(m)).sort(byArity)) {
      tries.push({ how: 'new ' + m.key.slice(4), make: () => new C(...argsFor(m)) });
    }
  }
  const returnsCls = (m) => cls.isAssignableFrom(m.ret);
  for (const m of members.filter((m) => m.kind === 'method' && m.isStatic && returnsCls(m) && usable(m)).sort(byArity)) {
    tries.push({ how: 'static ' + m.key.slice(7), make: () => C[m.name + '(' + m.sig + ')'](...argsFor(m)) });
  }
  for (const m of members.filter((m) => m.kind === 'field' && m.isStatic && cls.isAssignableFrom(m.types[0]))) {
    tries.push({ how: 'field ' + m.name, make: () => C[m.name] });
  }
  // an instance of a subclass from the table (interfaces, abstract classes)
  if (!tableClasses) tableClasses = TABLE.map(([n]) => classOf(n));
  for (let i = 0; i < TABLE.length; i++) {
    if (cls.isAssignableFrom(tableClasses[i]) || tableClasses[i].isAssignableFrom(cls)) {
      tries.push({ how: 'sample ' + TABLE[i][0], make: TABLE[i][1] });
    }
  }
  for (const r of tries.slice(0, 16)) {
    try {
      const v = r.make();
      if (v !== null && v !== undefined && typeof v === 'object' && cls.isInstance(v)) return r;
    } catch (e) {
      // next
    }
  }
  return null;
}

function argsFor(m) {
  const s = new Samples();
  return m.types.map((t) => s.get(t));
}

module.exports = { PACKAGES, listClasses, classOf, membersOf, excluded, receiverRecipe, Samples };
