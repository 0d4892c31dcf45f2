// process.js - the global process object: argv, env (a snapshot), exit,
// exitCode, cwd, nextTick, hrtime, platform, version, stdout/stderr.write,
// the global performance.now(),
// and a small listener registry (on/once/off/emit) so code that registers
// handlers does not fail. Also defines queueMicrotask, which JSC lacks.
(function (native, internal) {
  'use strict';

  // Thrown by native.exit() to unwind the script when an embedder hook
  // handles process.exit(); strait_eval & co. then return STRAIT_EEXIT.
  internal.exitSignal = Object.freeze({ __proto__: null, straitExit: true });

  const resolved = Promise.resolve();

  function queueMicrotask(fn) {
    if (typeof fn !== 'function') {
      throw new TypeError('queueMicrotask: callback must be a function');
    }
    resolved.then(() => fn());
  }

  if (typeof globalThis.queueMicrotask !== 'function') {
    Object.defineProperty(globalThis, 'queueMicrotask', {
      value: queueMicrotask, writable: true, configurable: true, enumerable: false,
    });
  }

  const listeners = new Map();

  // Node 20's check of an exit code (process.exit(code), process.exitCode =
  // code): undefined and null mean "no code"; an integer number, or a
  // non-empty string holding one, is accepted; any other number is a
  // RangeError (ERR_OUT_OF_RANGE), any other type a TypeError
  // (ERR_INVALID_ARG_TYPE). Returns the code as given.
  function describe(v) {
    if (v === null) return 'null';
    if (typeof v === 'function') return `function ${v.name}`;
    if (typeof v === 'object') {
      const c = v.constructor;
      return c && c.name ? `an instance of ${c.name}` : String(v);
    }
    let shown = String(v);
    if (typeof v === 'string') {
      if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
      shown = `'${shown}'`;
    }
    return `type ${typeof v} (${shown})`;
  }
  function codeError(Ctor, code, message) {
    const e = new Ctor(message);
    e.code = code;
    return e;
  }
  function checkCode(code) {
    if (code === undefined || code === null) return code;
    let value = code;
    if (typeof code === 'string' && code !== '' && Number.isInteger((value = +code))) return code;
    if (typeof value !== 'number') {
      throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE',
        `The "code" argument must be of type number. Received ${describe(value)}`);
    }
    if (!Number.isInteger(value)) {
      throw codeError(RangeError, 'ERR_OUT_OF_RANGE',
        `The value of "code" is out of range. It must be an integer. Received ${value}`);
    }
    if (value < Number.MIN_SAFE_INTEGER || value > Number.MAX_SAFE_INTEGER) {
      throw codeError(RangeError, 'ERR_OUT_OF_RANGE',
        `The value of "code" is out of range. It must be >= ${Number.MIN_SAFE_INTEGER} ` +
        `&& <= ${Number.MAX_SAFE_INTEGER}. Received ${value}`);
    }
    return code;
  }
  let exitCode;

  function hrtime(prev) {
    const [s, ns] = native.hrtime();
    if (Array.isArray(prev)) {
      let ds = s - prev[0];
      let dns = ns - prev[1];
      if (dns < 0) { ds -= 1; dns += 1e9; }
      return [ds, dns];
    }
    return [s, ns];
  }
  hrtime.bigint = function bigint() {
    const [s, ns] = native.hrtime();
    return BigInt(s) * 1000000000n + BigInt(ns);
  };

  function stream(fd) {
    return {
      fd,
      isTTY: native.isatty(fd),
      write(chunk, encoding, cb) {
        native.write(fd, typeof chunk === 'string' ? chunk : String(chunk));
        const done = typeof encoding === 'function' ? encoding : cb;
        if (typeof done === 'function') queueMicrotask(done);
        return true;
      },
    };
  }

  const process = {
    title: 'strait',
    version: 'strait 0.1.0',
    versions: { strait: '0.1.0' },
    release: { name: 'strait' },
    platform: 'linux',
    arch: 'x64',
    argv: native.argv(),
    execArgv: [],
    env: native.env(),
    pid: native.pid(),
    get exitCode() { return exitCode; },
    set exitCode(code) { exitCode = checkCode(code); },
    stdout: stream(1),
    stderr: stream(2),
    cwd() { return native.cwd(); },
    // As Node: the code is checked (checkCode), kept as process.exitCode,
    // and the process status is its low 8 bits (ToInt32, then & 0xff).
    exit(code) {
      native.exitDenied();
      if (arguments.length !== 0) process.exitCode = code;
      const c = process.exitCode;
      native.exit(c === undefined || c === null ? 0 : Number(c) | 0);
    },
    nextTick(fn, ...args) {
      if (typeof fn !== 'function') {
        throw new TypeError('process.nextTick: callback must be a function');
      }
      resolved.then(() => fn(...args));
    },
    hrtime,
    uptime() { return Number(hrtime.bigint() - startTime) / 1e9; },
    on(event, fn) {
      if (!listeners.has(event)) listeners.set(event, []);
      listeners.get(event).push(fn);
      return process;
    },
    once(event, fn) {
      const wrapper = (...args) => { process.off(event, wrapper); return fn(...args); };
      return process.on(event, wrapper);
    },
    off(event, fn) {
      const list = listeners.get(event);
      if (list) {
        const i = list.indexOf(fn);
        if (i !== -1) list.splice(i, 1);
      }
      return process;
    },
    emit(event, ...args) {
      const list = listeners.get(event);
      if (!list || list.length === 0) return false;
      for (const fn of list.slice()) fn.apply(process, args);
      return true;
    },
    listenerCount(event) { return (listeners.get(event) || []).length; },
  };
  process.addListener = process.on;
  process.removeListener = process.off;
  const startTime = hrtime.bigint();
  if (process.argv.length === 0) process.argv.push('strait');
  // As in Node: the executable's path, and argv[0] as the runtime got it.
  process.execPath = process.argv[0];
  process.argv0 = process.argv[0];

  Object.defineProperty(globalThis, 'process', {
    value: process, writable: true, configurable: true, enumerable: false,
  });

  // performance.now(): milliseconds since the runtime started, with
  // sub-millisecond precision (monotonic clock), and timeOrigin, as in Node.
  const timeOrigin = Date.now();
  const performance = {
    timeOrigin,
    now() {
      const [s, ns] = native.hrtime();
      return Number(BigInt(s) * 1000000000n + BigInt(ns) - startTime) / 1e6;
    },
    toJSON() { return { timeOrigin }; },
  };
  if (typeof globalThis.performance === 'undefined') {
    Object.defineProperty(globalThis, 'performance', {
      value: performance, writable: true, configurable: true, enumerable: false,
    });
  }
});
