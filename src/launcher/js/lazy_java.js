// lazy_java.js - the launcher's installer of the lazy Java globals (see
// src/launcher/lazy_java.c): evaluated once per runtime under the URL
// [strait:lazy-java], which its own stack filtering looks for. The
// completion value is a function (nativeStart, names).
(function (nativeStart, names) {
  'use strict';
  const SELF = '[strait:lazy-java]';
  const overrides = new Map();
  let started = false;
  const plain = (n, v) => Object.defineProperty(globalThis, n,
      { value: v, writable: true, enumerable: true, configurable: true });
  function define(n) {
    Object.defineProperty(globalThis, n, {
      configurable: true, enumerable: false,
      get() { start(); return globalThis[n]; },
      set(v) { overrides.set(n, v); plain(n, v); },
    });
  }
  // Points a failure's location and stack at the script's line that
  // touched Java, not at this installer.
  function blameCaller(e) {
    if (!(e instanceof Error) || typeof e.stack !== 'string') return e;
    const frames = e.stack.split('\n').filter((l) => l.indexOf(SELF) < 0 && l.indexOf('[native code]') < 0);
    const m = frames.length ? /^(?:[^@]*@)?(.+):(\d+):(\d+)$/.exec(frames[0]) : null;
    try {
      e.stack = frames.join('\n');
      if (m) {
        e.sourceURL = m[1];
        e.line = Number(m[2]);
        e.column = Number(m[3]);
      }
    } catch (ignored) { /* a frozen error keeps its own location */ }
    return e;
  }
  function start() {
    if (started) return;
    for (const n of names) if (!overrides.has(n)) delete globalThis[n];
    try {
      nativeStart();
    } catch (e) {
      for (const n of names) if (!overrides.has(n)) define(n);
      throw blameCaller(e);
    }
    started = true;
    for (const [n, v] of overrides) plain(n, v);
  }
  for (const n of names) define(n);
})
