'use strict';
// driver.js - the interop sweep: calls every public constructor, method and
// field of JDK classes from JS with wrong-typed and odd arguments, and
// classifies what each call did. Run by tests/js/java/sweep.test.sh (one
// strait process per chunk of classes) or by hand:
//
//   strait driver.js list                 the swept classes, one a line
//   strait driver.js excluded             the exclusion list with reasons
//   strait driver.js run CLASS...         sweeps the classes
//
// Environment of `run`:
//   SWEEP_SEED    seed of the argument choice (default 1)
//   SWEEP_BUDGET  argument vectors per member (each is called in two forms);
//                 0 = every vector (default 0)
//   SWEEP_FROM    skip the steps numbered below this (a resumed chunk)
//   SWEEP_TO      stop after this step (with SWEEP_FROM: replay one member)
//   SWEEP_AVOID   comma-separated step numbers never run again (they crashed)
//   SWEEP_TRACE   1: print each call before making it (to find the call of a
//                 crash: run the crashing class alone)
//   SWEEP_SLOW_MS members slower than this are listed (default 250)
//
// Per member, the argument vectors are: the samples of every parameter
// type; for each position in turn, a wrapper of an unrelated class (one
// that is not an instance of the parameter type; without a budget, each
// such wrapper of pools.unrelated()) and each value of
// pools.oddValues(), the other positions holding samples; one argument too
// many and one too few; for instance members the call on an unrelated
// wrapper and on odd JS values as the receiver. Fields: a read, then writes
// of the sample, an unrelated wrapper and each odd value. Every vector is
// called by name (overload resolution) and through the explicit signature
// (C['name(type,...)'], C['new(type,...)'] for constructors). With a
// budget, the sample vector and the unrelated-wrapper vectors (arguments and
// receiver) always run and the rest is drawn by a PRNG seeded with the seed,
// the class and the member, so the same seed makes the same calls.
//
// Output (fd 1, unbuffered, so it interleaves correctly with the JVM's own
// -Xcheck:jni warnings):
//   @@sweep step N CLASS MEMBER       before the calls of a step (a member,
//                                     or a class's receiver search)
//   !!sweep KIND CLASS MEMBER: TEXT   a failure (a few per kind and class)
//   ==sweep CLASS key=value...        the counters of a class
//   ..sweep WHAT ...                  notes: the receiver recipe, members
//                                     slower than SLOW_MS, incomplete messages
// Outcomes of a call: returned; threw a Java exception (an Error with
// .javaException); rejected by the bridge (a TypeError or RangeError naming
// the member; "incomplete", only counted, when an explicit-signature
// rejection does not also name the argument position and its declared
// type); passed on the script's own error (pools.Sentinel, or JS refusing to
// call a class given as a callback). Failures: a wrapper of the wrong class
// let through to a member the call selects alone (explicit signature, only
// overload of the arity, wrong receiver) that returned or threw from inside
// ("accepted"), a rejection that does not name the member ("unclear"), an explicit signature that does not resolve
// to a function ("unresolved"), an explicit constructor function that
// cannot construct ("ctorform"), any other throw ("other"), a runtime that
// no longer answers after a class ("broken"). Crashes and hangs are seen by
// the caller (the process dies or times out after an @@sweep line).
const { listClasses, classOf, membersOf, excluded, receiverRecipe, Samples } = require('./classes');
const { Sentinel, rng, oddValues, unrelated } = require('./pools');
const EXCLUDE = require('./exclude');

const out = (s) => process.stdout.write(s + '\n');
const oneLine = (s) => String(s).replace(/\s+/g, ' ').slice(0, 300);
const env = process.env;
const SEED = env.SWEEP_SEED || '1';
const BUDGET = Number(env.SWEEP_BUDGET || 0);
const FROM = Number(env.SWEEP_FROM || 0);
const TO = env.SWEEP_TO ? Number(env.SWEEP_TO) : Infinity;
const AVOID = new Set(String(env.SWEEP_AVOID || '').split(',').filter(Boolean).map(Number));
const TRACE = Boolean(env.SWEEP_TRACE);   // print each call before making it
const EXAMPLES = 3;   // failures printed per kind and class
const SLOW_MS = Number(env.SWEEP_SLOW_MS || 250);  // members that take longer are listed (..sweep slow)
// The odd values also tried as the receiver of instance methods.
const RECEIVERS = new Set(['null', "'abc'", '{}', 'Proxy({})', '1n']);

const COUNTERS = ['members', 'swept', 'excluded', 'noreceiver', 'calls', 'returned', 'java', 'rejected',
  'propagated', 'incomplete', 'accepted', 'unclear', 'unresolved', 'ctorform', 'other', 'broken'];
const FAILURES = ['accepted', 'unclear', 'unresolved', 'ctorform', 'other', 'broken'];

class ClassRun {
  constructor(name) {
    this.name = name;
    this.n = {};
    for (const k of COUNTERS) this.n[k] = 0;
    this.printed = {};
  }

  fail(kind, member, text) {
    this.n[kind]++;
    this.printed[kind] = (this.printed[kind] || 0) + 1;
    if (this.printed[kind] <= EXAMPLES) out('!!sweep ' + kind + ' ' + this.name + ' ' + member + ': ' + oneLine(text));
  }
}

// True when a bridge message names member m: ".name" for a method or a
// field ("java.lang.Integer.parseInt(java.lang.String) argument 1: ..."),
// the class's simple name for a constructor ("new java.util.ArrayList").
function namesMember(m, msg) {
  const name = m.name.replace(/[$]/g, '\\$');
  const re = m.kind === 'ctor' ? new RegExp('\\b' + name + '\\b') : new RegExp('\\.' + name + '\\b');
  return re.test(msg);
}

// True when a message names the argument position and its declared type
// (full or simple name, "int[]" for an array): "argument 2: cannot convert
// number 1.5 to int". Only counted (incomplete), not a failure.
function namesPosition(m, pos, msg) {
  const at = msg.indexOf('argument ' + (pos + 1));
  if (at < 0) return false;
  const rest = msg.slice(at);   // the signature before it names every type
  const full = String(m.types[pos].getTypeName());
  const simple = full.slice(Math.max(full.lastIndexOf('.'), full.lastIndexOf('$')) + 1);
  return rest.indexOf(full) >= 0 || new RegExp('\\b' + simple.replace(/[[\]$]/g, '\\$&') + '(?![\\w.$])').test(rest);
}

// Classifies the outcome of one call. pos: the argument position that got
// the odd value (-1: none); explicit: called through the explicit form.
// mustReject: the call passes a wrapper that is not an instance of the
// declared type to a member the call selects alone (an explicit signature,
// or the only overload of that arity), or calls it on a wrapper of another
// class: only a bridge rejection is right; returning or a Java exception
// from inside the member means the bridge let the wrong object through
// ("accepted").
function classify(run, m, label, explicit, pos, fn, mustReject) {
  run.n.calls++;
  const what = m.key + ' <- ' + label + (explicit ? ' [explicit]' : '');
  if (TRACE) out('..sweep call ' + what);
  try {
    fn();
    run.n.returned++;
    if (mustReject) run.fail('accepted', what, 'returned normally');
    return;
  } catch (e) {
    if (e instanceof Sentinel) { run.n.propagated++; return; }
    if (e !== null && typeof e === 'object' && e.javaException !== undefined) {
      run.n.java++;
      if (mustReject) run.fail('accepted', what, 'threw ' + oneLine(e.message));
      return;
    }
    if (e instanceof Unresolved) return run.fail('unresolved', what, e.message);
    // the JS value's own error (a revoked Proxy read through its live
    // JsObject view by Java), thrown by the runtime's captured intrinsics
    // (of the script's own realm: strait_java_prepare) and passed on
    // unchanged
    if (e instanceof TypeError && String(e.message).startsWith('Proxy has already been revoked')) {
      run.n.propagated++;
      return;
    }
    if (e instanceof TypeError || e instanceof RangeError) {
      const msg = String(e.message);
      if (explicit && /has no (static )?method /.test(msg)) return run.fail('unresolved', what, msg);
      // a JS class given as a callback: JS itself refuses the call, inside
      // the callback, and the bridge passes that error on
      if (msg === 'Cannot call a class constructor without |new|') { run.n.propagated++; return; }
      if (explicit && m.kind === 'ctor' && /receiver is not a Java object/.test(msg)) return run.fail('ctorform', what, msg);
      // a static final the bridge has cached as a read-only data property
      // (after its first read): JS itself refuses the write in strict code,
      // as for any frozen property, and the value stays (checked by the caller)
      if (m.kind === 'field' && m.isFinal && msg === 'Attempted to assign to readonly property.') {
        run.n.rejected++;
        return;
      }
      if (!namesMember(m, msg)) return run.fail('unclear', what, e.name + ': ' + msg);
      run.n.rejected++;
      if (explicit && pos >= 0 && !namesPosition(m, pos, msg)) {
        run.n.incomplete++;
        run.printed.incomplete = (run.printed.incomplete || 0) + 1;
        if (run.printed.incomplete <= 1) out('..sweep incomplete ' + run.name + ' ' + what + ': ' + oneLine(msg));
      }
      return;
    }
    let text;
    try { text = e instanceof Error ? e.name + ': ' + e.message : typeof e + ' ' + String(e); } catch (x) { text = typeof e; }
    return run.fail('other', what, text);
  }
}

// The argument vectors of a member: { args, pos, label, recv? (receiver
// override), must (always run) }.
function vectors(cls, m, base, samples, odd, unrel, r) {
  const v = [];
  const n = base.length;
  v.push({ args: base, pos: -1, label: 'samples', must: true });
  for (let i = 0; i < n; i++) {
    const t = m.types[i];
    if (String(t.getTypeName()) === 'java.lang.Object') continue;   // every wrapper is an Object
    // one unrelated wrapper (drawn) with a budget, all of them without
    const start = r(unrel.length);
    for (let j = 0; j < unrel.length; j++) {
      const u = unrel[(start + j) % unrel.length];
      if (t.isPrimitive() || !t.isInstance(u)) {
        const args = base.slice();
        args[i] = u;
        // (a varargs position takes one element of the array as well)
        v.push({ args, pos: i, label: 'arg ' + (i + 1) + ' = ' + String(u.getClass().getName()), must: true,
          wrong: !t.isPrimitive() && !(m.varargs && i === n - 1) });
        if (BUDGET > 0) break;
      }
    }
  }
  if (m.kind === 'method' && !m.isStatic) {
    for (const u of unrel) {
      if (!cls.isInstance(u)) {
        v.push({ args: base, pos: -1, label: 'receiver = ' + String(u.getClass().getName()), recv: u, must: true,
          wrongReceiver: true });
        if (BUDGET > 0) break;
      }
    }
    for (const [label, value] of odd.filter(([l]) => RECEIVERS.has(l))) {
      v.push({ args: base, pos: -1, label: 'receiver = ' + label, recv: value });
    }
  }
  for (let i = 0; i < n; i++) {
    for (const [label, value] of odd) {
      // a JS array reaches a parameter that is not a Java array as the live
      // JsArray: Java reading 2^32-1 elements (String.valueOf(obj) calls
      // String(a)) takes as long as JS itself would, so this sample goes
      // only where it is copied, and its length refused
      if (label === 'Array(2^32-1)' && !m.types[i].isArray()) continue;
      const args = base.slice();
      args[i] = value;
      v.push({ args, pos: i, label: 'arg ' + (i + 1) + ' = ' + label });
    }
  }
  v.push({ args: base.concat(['a']), pos: -1, label: (n + 1) + ' arguments' });
  if (n > 0) v.push({ args: base.slice(0, n - 1), pos: -1, label: (n - 1) + ' arguments' });
  if (BUDGET <= 0 || v.length <= BUDGET) return v;
  const must = v.filter((x) => x.must);
  const rest = v.filter((x) => !x.must);
  for (let i = 0; i < rest.length; i++) {      // partial Fisher-Yates
    const j = i + r(rest.length - i);
    const t = rest[i]; rest[i] = rest[j]; rest[j] = t;
  }
  return must.concat(rest.slice(0, Math.max(0, BUDGET - must.length)));
}

// Stops what a receiver may have started and frees what it holds.
function release(x) {
  if (x === null || typeof x !== 'object') return;
  try {
    if (x instanceof java.util.concurrent.ExecutorService) x.shutdownNow();
    else if (x instanceof java.util.Timer) x.cancel();
    else if (x instanceof java.lang.AutoCloseable) x.close();
  } catch (e) {
    // a receiver in a broken state: nothing to free
  }
}

function sweepField(run, C, cls, m, recv) {
  const samples = new Samples();
  const r = rng(SEED + '|' + run.name + '|' + m.key);
  const owner = m.isStatic ? C : recv;
  classify(run, m, 'read', false, -1, () => owner[m.name]);
  const writes = [['sample', samples.get(m.types[0])]];
  for (const u of unrelated()) {
    if (!m.types[0].isInstance(u)) { writes.push(['unrelated ' + String(u.getClass().getName()), u]); break; }
  }
  let odd = oddValues();
  if (BUDGET > 0 && odd.length + writes.length > BUDGET) {
    const picked = [];
    for (let i = 0; i < Math.max(1, BUDGET - writes.length); i++) picked.push(odd[r(odd.length)]);
    odd = picked;
  }
  let before;
  try { before = owner[m.name]; } catch (e) { before = e; }
  for (const [label, value] of writes.concat(odd)) {
    classify(run, m, 'write ' + label, false, -1, () => { owner[m.name] = value; });
    if (m.isFinal) {
      let now;
      try { now = owner[m.name]; } catch (e) { now = e; }
      if (!Object.is(now, before)) run.fail('accepted', m.key + ' <- write ' + label, 'a final field changed');
    }
  }
}

// The function a call form names, or an Unresolved error when the class
// object or prototype has none (an explicit signature the bridge did not
// resolve, a member it does not expose).
class Unresolved extends Error {}
function fnOf(owner, key) {
  const f = owner[key];
  if (typeof f !== 'function') throw new Unresolved(key + ' is ' + typeof f);
  return f;
}

function sweepMember(run, C, cls, m, recv) {
  if (m.kind === 'field') return sweepField(run, C, cls, m, recv);
  const samples = new Samples();
  const r = rng(SEED + '|' + run.name + '|' + m.key);
  const base = m.types.map((t) => samples.get(t));
  const odd = oddValues();
  const unrel = unrelated();
  const explicit = m.name + '(' + m.sig + ')';
  const ctorKey = 'new(' + m.sig + ')';
  for (const vec of vectors(cls, m, base, samples, odd, unrel, r)) {
    const a = vec.args;
    const byName = Boolean(vec.wrongReceiver || (vec.wrong && m.alone));
    const bySig = Boolean(vec.wrongReceiver || vec.wrong);
    if (m.kind === 'ctor') {
      classify(run, m, vec.label, false, vec.pos, () => new C(...a), byName);
      classify(run, m, vec.label, true, vec.pos, () => fnOf(C, ctorKey)(...a), bySig);
    } else if (m.isStatic) {
      classify(run, m, vec.label, false, vec.pos, () => fnOf(C, m.name).apply(C, a), byName);
      classify(run, m, vec.label, true, vec.pos, () => fnOf(C, explicit).apply(C, a), bySig);
    } else {
      const self = 'recv' in vec ? vec.recv : recv;
      classify(run, m, vec.label, false, vec.pos, () => fnOf(C.prototype, m.name).apply(self, a), byName);
      classify(run, m, vec.label, true, vec.pos, () => fnOf(C.prototype, explicit).apply(self, a), bySig);
    }
  }
}

function sweepClass(name, step) {
  const run = new ClassRun(name);
  let C;
  let cls;
  let members;
  try {
    cls = classOf(name);
    members = membersOf(cls);
    C = Java.type(name);
  } catch (e) {
    run.fail('other', '(class)', 'cannot load: ' + (e && e.message));
    return { run, steps: 1 };
  }
  const last = step + members.length;   // step: the receiver search; step+1+i: member i
  // alone: the only overload a call by name with that many arguments can pick
  const arity = new Map();
  for (const m of members) {
    if (m.kind === 'field') continue;
    const k = m.kind + ' ' + m.isStatic + ' ' + m.name;
    const list = arity.get(k) || [];
    list.push(m);
    arity.set(k, list);
  }
  for (const list of arity.values()) {
    for (const m of list) m.alone = !list.some((o) => o.varargs || (o !== m && o.types.length === m.types.length));
  }
  if (last < FROM || step > TO) return { run: null, steps: members.length + 1 };
  let recipe = null;
  if (!AVOID.has(step) && members.some((m) => !m.isStatic)) {
    out('@@sweep step ' + step + ' ' + name + ' (receiver search)');
    recipe = receiverRecipe(cls, C);
  }
  out('..sweep receiver ' + name + ' ' + (recipe ? recipe.how : 'none'));
  for (let i = 0; i < members.length; i++) {
    const m = members[i];
    const s = step + 1 + i;
    if (s < FROM || s > TO || AVOID.has(s)) continue;
    run.n.members++;
    if (excluded(cls, m)) { run.n.excluded++; continue; }
    let recv = null;
    if (!m.isStatic) {
      try {
        recv = recipe ? recipe.make() : null;
      } catch (e) {
        recv = null;
      }
      if (recv === null || recv === undefined) { run.n.noreceiver++; continue; }
    }
    out('@@sweep step ' + s + ' ' + name + ' ' + m.key);
    run.n.swept++;
    const t0 = Date.now();
    sweepMember(run, C, cls, m, recv);
    if (recv && recipe.how.indexOf('field ') !== 0) release(recv);
    const ms = Date.now() - t0;
    if (ms >= SLOW_MS) out('..sweep slow ' + ms + 'ms ' + name + ' ' + m.key);
  }
  // the runtime still answers and no Java exception is left pending
  try {
    if (java.lang.Integer.parseInt('12') !== 12 || new java.util.ArrayList(java.util.List.of(1)).size() !== 1) {
      run.fail('broken', '(after the class)', 'wrong answers');
    }
  } catch (e) {
    run.fail('broken', '(after the class)', String(e && e.message));
  }
  return { run, steps: members.length + 1 };
}

function report(run) {
  const parts = COUNTERS.map((k) => k + '=' + run.n[k]);
  const failed = FAILURES.some((k) => run.n[k] > 0);
  out('==sweep ' + run.name + ' ' + (failed ? 'FAIL' : 'ok') + ' ' + parts.join(' '));
}

function main() {
  const argv = process.argv.slice(2);
  const mode = argv[0];
  if (mode === 'list') {
    out(listClasses().join('\n'));
  } else if (mode === 'excluded') {
    for (const r of EXCLUDE) out(r.cls + ' ' + r.names.join(',') + (r.params ? ' ' + r.params : '') + ': ' + r.why);
  } else if (mode === 'run') {
    let step = 0;
    for (const name of argv.slice(1)) {
      const { run, steps } = sweepClass(name, step);
      step += steps;
      if (run) report(run);
    }
    out('..sweep done');
  } else {
    out('usage: strait driver.js list | excluded | run CLASS...');
    process.exitCode = 2;
  }
  // Pools and timers some members started must not keep the process alive.
  process.exit(process.exitCode || 0);
}

main();
