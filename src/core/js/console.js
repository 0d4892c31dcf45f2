// console.js - the global console: log/info/debug write to fd 1,
// warn/error/trace to fd 2, each call one line formatted by internal.format
// (util.format rules). Also dir, assert, count, time, group, table (as log).
(function (native, internal) {
  'use strict';
  const format = internal.format;
  const inspect = internal.inspect;
  let groupIndent = '';
  const counts = new Map();
  const timers = new Map();

  function emit(fd, text) {
    if (groupIndent !== '') text = groupIndent + text.split('\n').join('\n' + groupIndent);
    native.write(fd, text + '\n');
  }

  function label(v) {
    return v === undefined ? 'default' : `${v}`;
  }

  function elapsed(start) {
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    return ms >= 1000 ? `${(ms / 1000).toFixed(3)}s` : `${ms.toFixed(3)}ms`;
  }

  const console = {
    log(...args) { emit(1, format(args)); },
    info(...args) { emit(1, format(args)); },
    debug(...args) { emit(1, format(args)); },
    warn(...args) { emit(2, format(args)); },
    error(...args) { emit(2, format(args)); },
    trace(...args) {
      const err = new Error();
      const frames = internal.stackLines(err.stack).split('\n').slice(1).join('\n');
      emit(2, `Trace${args.length ? ': ' + format(args) : ''}${frames ? '\n' + frames : ''}`);
    },
    dir(obj, options) { emit(1, inspect(obj, Object.assign({ customInspect: false }, options))); },
    assert(cond, ...args) {
      if (cond) return;
      if (args.length > 0 && typeof args[0] === 'string') {
        args[0] = `Assertion failed: ${args[0]}`;
        emit(2, format(args));
      } else {
        emit(2, format(['Assertion failed', ...args]));
      }
    },
    count(l) {
      const key = label(l);
      const n = (counts.get(key) || 0) + 1;
      counts.set(key, n);
      emit(1, `${key}: ${n}`);
    },
    countReset(l) { counts.delete(label(l)); },
    time(l) { timers.set(label(l), process.hrtime.bigint()); },
    timeLog(l, ...args) {
      const key = label(l);
      if (!timers.has(key)) { emit(2, `Warning: No such label '${key}' for console.timeLog()`); return; }
      emit(1, format([`${key}: ${elapsed(timers.get(key))}`, ...args]));
    },
    timeEnd(l) {
      const key = label(l);
      if (!timers.has(key)) { emit(2, `Warning: No such label '${key}' for console.timeEnd()`); return; }
      emit(1, `${key}: ${elapsed(timers.get(key))}`);
      timers.delete(key);
    },
    group(...args) {
      if (args.length) emit(1, format(args));
      groupIndent += '  ';
    },
    groupEnd() { groupIndent = groupIndent.slice(0, -2); },
  };
  console.groupCollapsed = console.group;
  console.table = console.log;
  console.dirxml = console.log;
  Object.defineProperty(globalThis, 'console', {
    value: console, writable: true, configurable: true, enumerable: false,
  });
});
