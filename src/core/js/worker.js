// worker.js - workers and message ports over the natives of worker.c: the
// web's Worker, MessageChannel, MessagePort, EventTarget, Event,
// MessageEvent and ErrorEvent as globals, the worker's global scope (self,
// postMessage, onmessage, close), and Node's require('worker_threads').
// Evaluated on first use (env.c, strait__env_load): the first read of one of
// its globals or of require('worker_threads'), or a port that arrives. The
// built-ins it calls were captured by intrinsics.js when the runtime
// started: a script that replaces Map or Function.prototype.call before or
// after does not change how messages are routed.
(function (native, internal) {
  'use strict';
  /* intrinsics: captured when the runtime started (intrinsics.js) */
  const { MapC, WeakMapC, PromiseC, ErrorC, TypeErrorC, SymbolC, ArrayIsArray, apply, defineProperty,
    create, decodeURI, StringC, bindTo, mapGetM, mapSetM, mapDeleteM, mapForEachM, weakMapGetM,
    weakMapSetM, arrayPush, arraySlice, arraySplice, strSlice, strStartsWith, strLastIndexOf, strSplit,
    reExec } = internal.intr.worker;
  const path = internal.path;
  const n = {
    channel: native.channel, post: native.portPost, start: native.portStart, ref: native.portRef,
    close: native.portClose, workerStart: native.workerStart, terminate: native.workerTerminate,
    exited: native.workerExited, selfClose: native.selfClose, stats: native.messageStats,
  };
  const G = globalThis;
  const byId = new MapC();                       // port id -> its object (a port or a Worker)
  const getById = bindTo(mapGetM, byId), setById = bindTo(mapSetM, byId);
  const delById = bindTo(mapDeleteM, byId);
  const idOf = new WeakMapC();                   // port object -> id
  const getId = bindTo(weakMapGetM, idOf), setId = bindTo(weakMapSetM, idOf);
  const push = (a, v) => apply(arrayPush, a, [v]);
  const call = (f, self, args) => apply(f, self, args);

  // ---- events -----------------------------------------------------------
  const LISTENERS = SymbolC('listeners'), STOP = SymbolC('stop');
  class Event {
    constructor(type, init) {
      if (arguments.length === 0) throw new TypeErrorC("Failed to construct 'Event': 1 argument required");
      this.type = StringC(type);
      this.defaultPrevented = false;
      this.cancelable = !!(init && init.cancelable);
      this.target = null;
      this.currentTarget = null;
      this.timeStamp = 0;
      this[STOP] = false;
    }
    preventDefault() { if (this.cancelable) this.defaultPrevented = true; }
    stopImmediatePropagation() { this[STOP] = true; }
    stopPropagation() {}
  }
  class MessageEvent extends Event {
    constructor(type, init) {
      super(type, init);
      this.data = init && 'data' in init ? init.data : null;
      this.ports = init && init.ports ? init.ports : [];
      this.origin = '';
      this.lastEventId = '';
      this.source = null;
    }
  }
  class ErrorEvent extends Event {
    constructor(type, init) {
      super(type, init);
      this.message = init && init.message !== undefined ? StringC(init.message) : '';
      this.filename = init && init.filename !== undefined ? StringC(init.filename) : '';
      this.lineno = (init && init.lineno) | 0;
      this.colno = (init && init.colno) | 0;
      this.error = init ? init.error : undefined;
    }
  }

  // The listeners of a target by type: arrays of {fn, once}. A target may
  // be told when its 'message' listeners come and go (onListeners).
  function listenersOf(t) {
    let m = t[LISTENERS];
    if (!m) defineProperty(t, LISTENERS, { value: m = new MapC() });
    return m;
  }
  const mapGet = mapGetM, mapSet = mapSetM;
  function countOf(t, type) {
    const m = t[LISTENERS];
    const l = m && call(mapGet, m, [type]);
    return l ? l.length : 0;
  }
  function addListener(t, type, fn, once, raw) {
    if (typeof fn !== 'function' && (fn === null || typeof fn !== 'object')) return;
    const m = listenersOf(t);
    let l = call(mapGet, m, [type]);
    if (!l) call(mapSet, m, [type, l = []]);
    for (let i = 0; i < l.length; i++) if (l[i].fn === fn && l[i].raw === raw) return;
    push(l, { fn, once: !!once, raw: !!raw });
    if (l.length === 1 && t.onListeners) t.onListeners(type, 1);
  }
  function removeListener(t, type, fn, raw) {
    const m = t[LISTENERS];
    const l = m && call(mapGet, m, [type]);
    if (!l) return;
    for (let i = 0; i < l.length; i++) {
      if (l[i].fn === fn && l[i].raw === !!raw) {
        call(arraySplice, l, [i, 1]);
        if (l.length === 0 && t.onListeners) t.onListeners(type, 0);
        return;
      }
    }
  }
  // Calls the listeners of event.type on t; raw listeners (Node's .on())
  // get rawArg instead of the event. A listener that throws ends the
  // dispatch (the error is the loop's uncaught error).
  function dispatch(t, event, rawArg) {
    const m = t[LISTENERS];
    const l = m && call(mapGet, m, [event.type]);
    if (!l || l.length === 0) return false;
    if (event.target === null) event.target = t;
    event.currentTarget = t;
    const list = l.length === 1 ? l : call(arraySlice, l, []);
    for (let i = 0; i < list.length && !event[STOP]; i++) {
      const e = list[i];
      if (e.once) removeListener(t, event.type, e.fn, e.raw);
      if (e.raw) call(e.fn, t, rawArg);
      else if (typeof e.fn === 'function') call(e.fn, t, [event]);
      else call(e.fn.handleEvent, e.fn, [event]);
    }
    return true;
  }
  // A message to t: a MessageEvent only when a listener takes events (the
  // web's); Node's .on('message') listeners take the value.
  function dispatchMessage(t, type, value) {
    const m = t[LISTENERS];
    const l = m && call(mapGet, m, [type]);
    if (!l || l.length === 0) return false;
    if (l.length === 1 && l[0].raw) {
      const e = l[0];
      if (e.once) removeListener(t, type, e.fn, true);
      call(e.fn, t, [value]);
      return true;
    }
    return dispatch(t, new MessageEvent(type, { data: value }), [value]);
  }
  class EventTarget {
    addEventListener(type, fn, options) {
      addListener(this, StringC(type), fn, options && typeof options === 'object' && options.once, false);
    }
    removeEventListener(type, fn) { removeListener(this, StringC(type), fn, false); }
    dispatchEvent(event) {
      if (!(event instanceof Event)) throw new TypeErrorC("dispatchEvent: the argument is not an Event");
      dispatch(this, event, [event]);
      return !event.defaultPrevented;
    }
  }
  // on<type> attribute handlers, as the web defines them: one listener slot
  // per type, kept among the others in the order it was set.
  const HANDLERS = SymbolC('handlers');
  function defineHandler(proto, type, onSet) {
    defineProperty(proto, 'on' + type, {
      configurable: true, enumerable: true,
      // (a bare `onmessage = f` in a worker's strict code calls the
      // global's setter with this undefined)
      get() { const t = this == null ? G : this, h = t[HANDLERS]; return (h && h[type]) || null; },
      set(fn) {
        const t = this == null ? G : this;
        let h = t[HANDLERS];
        if (!h) defineProperty(t, HANDLERS, { value: h = create(null) });
        if (h[type]) removeListener(t, type, h[type], false);
        h[type] = typeof fn === 'function' ? fn : null;
        if (h[type]) {
          addListener(t, type, h[type], false, false);
          if (onSet) onSet(t);
        }
      },
    });
  }
  // Node's EventEmitter methods over the same listeners (raw: the listener
  // gets the arguments, not an event).
  function emitterMethods(proto) {
    proto.on = proto.addListener = function (type, fn) {
      if (typeof fn !== 'function') throw new TypeErrorC('The "listener" argument must be of type function');
      addListener(this, StringC(type), fn, false, true); return this;
    };
    proto.once = function (type, fn) {
      if (typeof fn !== 'function') throw new TypeErrorC('The "listener" argument must be of type function');
      addListener(this, StringC(type), fn, true, true); return this;
    };
    proto.off = proto.removeListener = function (type, fn) { removeListener(this, StringC(type), fn, true); return this; };
    proto.removeAllListeners = function (type) {
      const m = this[LISTENERS];
      if (!m) return this;
      const types = [];
      call(mapForEachM, m, [(l, t) => { if (type === undefined || t === type) push(types, t); }]);
      for (const t of types) {
        const l = call(mapGet, m, [t]);
        while (l.length) removeListener(this, t, l[l.length - 1].fn, l[l.length - 1].raw);
      }
      return this;
    };
    proto.emit = function (type, ...args) {
      const ev = new Event(type);
      return dispatch(this, ev, args);
    };
    proto.listenerCount = function (type) { return countOf(this, StringC(type)); };
  }

  // ---- ports ------------------------------------------------------------
  // The transfer list's MessagePorts and ArrayBuffers; anything else is
  // the clone engine's to refuse.
  function transferOf(t, what) {
    if (t === undefined || t === null) return undefined;
    if (typeof t !== 'object') throw new TypeErrorC(what + ': the transfer list must be an array');
    if (!ArrayIsArray(t)) {
      if (typeof t[SymbolC.iterator] === 'function') return [...t];
      throw new TypeErrorC(what + ': the transfer list must be an array');
    }
    return t;
  }
  // postMessage(value, transfer) or postMessage(value, { transfer }).
  function transferArg(opt, what) {
    if (opt !== null && typeof opt === 'object' && !ArrayIsArray(opt) && typeof opt[SymbolC.iterator] !== 'function')
      return transferOf(opt.transfer, what);
    return transferOf(opt, what);
  }

  const PORT = SymbolC('port');
  class MessagePort extends EventTarget {
    constructor(key) {
      if (key !== PORT) throw new TypeErrorC('Illegal constructor');
      super();
    }
    postMessage(value, transfer) {
      if (arguments.length === 0) throw new TypeErrorC("Failed to execute 'postMessage': 1 argument required");
      const id = getId(this);
      if (id === undefined) throw new TypeErrorC('postMessage: not a MessagePort');
      n.post(id, value, transferArg(transfer, 'postMessage'));
    }
    start() { const id = getId(this); if (id) n.start(id); }
    close() {
      const id = getId(this);
      if (!id) return;
      setId(this, 0);
      delById(id);
      n.close(id);
    }
    ref() { const id = getId(this); if (id) { this._refed = true; n.ref(id, true); } return this; }
    unref() { const id = getId(this); if (id) { this._unref = true; n.ref(id, false); } return this; }
    hasRef() { return countOf(this, 'message') > 0 && !this._unref; }
    onListeners(type, count) {
      if (type !== 'message') return;
      const id = getId(this);
      if (!id) return;
      if (count > 0 && !this._unref) n.ref(id, true);
      if (count === 0) n.ref(id, false);
    }
  }
  defineHandler(MessagePort.prototype, 'message', (p) => p.start());
  defineHandler(MessagePort.prototype, 'messageerror');
  emitterMethods(MessagePort.prototype);
  // Node's .on('message') starts the port too.
  const portOn = MessagePort.prototype.on, portOnce = MessagePort.prototype.once;
  MessagePort.prototype.on = MessagePort.prototype.addListener = function (type, fn) {
    call(portOn, this, [type, fn]);
    if (type === 'message') this.start();
    return this;
  };
  MessagePort.prototype.once = function (type, fn) {
    call(portOnce, this, [type, fn]);
    if (type === 'message') this.start();
    return this;
  };
  defineProperty(MessagePort.prototype, SymbolC.toStringTag, { value: 'MessagePort', configurable: true });
  // What a port's messages become: an event for addEventListener/on<type>,
  // the value for .on().
  function portDeliver(p, kind, value) {
    if (kind === 0) dispatchMessage(p, 'message', value);
    else if (kind === 1) dispatchMessage(p, 'messageerror', value);
    else if (kind === 4) {
      const id = getId(p);
      if (id) { setId(p, 0); delById(id); }
      dispatch(p, new Event('close'), []);
    }
  }
  function makePort(id) {
    const p = new MessagePort(PORT);
    setId(p, id);
    setById(id, { port: p, deliver: portDeliver });
    return p;
  }
  class MessageChannel {
    constructor() {
      const ids = n.channel();
      this.port1 = makePort(ids[0]);
      this.port2 = makePort(ids[1]);
    }
  }
  internal.portIdOf = (obj) => (obj instanceof MessagePort && getId(obj)) || -1;
  internal.portMake = (id) => makePort(id);
  internal.portDetached = (id) => {
    const e = getById(id);
    if (e) { setId(e.port, 0); delById(id); }
  };
  internal.portDeliver = function (id, kind, value, info) {
    const e = getById(id);
    if (e) e.deliver(e.port, kind, value, info);
  };

  // ---- workers ----------------------------------------------------------
  // The file of the script that called: the first stack frame with an
  // absolute path (bootstrap code has none).
  const FRAME = /(\/[^\n]*?):\d+:\d+$/, SCHEME = /^[a-z][a-z0-9+.-]*:/i;
  function callerDir() {
    const stack = StringC(new ErrorC().stack || '');
    const lines = call(strSplit, stack, ['\n']);
    for (let i = 0; i < lines.length; i++) {
      const at = call(strLastIndexOf, lines[i], ['@']);
      const m = call(reExec, FRAME, [at >= 0 ? call(strSlice, lines[i], [at + 1]) : lines[i]]);
      if (m) return path.dirname(m[1]);
    }
    return native.cwd();
  }
  function fileOf(spec, base, what) {
    if (spec !== null && typeof spec === 'object' && typeof spec.href === 'string') spec = spec.href;
    if (typeof spec !== 'string') throw new TypeErrorC(what + ': the script must be a path string or a file: URL');
    if (call(strStartsWith, spec, ['file://'])) spec = decodeURI(call(strSlice, spec, [7]));
    else if (call(reExec, SCHEME, [spec])) throw new TypeErrorC(what + ": only file: URLs can be loaded, not '" + spec + "'");
    return path.resolve(base, spec);
  }

  const WORKER = SymbolC('worker');
  // State shared by both Worker classes: its port id, thread id, exit.
  function startWorker(w, file, source, name, data, transfer) {
    const r = n.workerStart(file, source, name, data, transfer);
    const st = { id: r[0], threadId: r[1], exited: false, terminated: false, code: undefined, waiters: [], worker: w };
    w[WORKER] = st;
    setById(r[0], { port: w, deliver: workerDeliver });
    return st;
  }
  function workerDeliver(w, kind, value, info) {
    const st = w[WORKER];
    const node = w instanceof NodeWorker;
    /* after terminate() only the exit comes through: what the worker still
     * posted (it may run on briefly, e.g. until a Java call it was blocked
     * in returns) is dropped, as the web drops a terminated worker's port */
    if (st.terminated && kind !== 3) return;
    if (kind === 0 || kind === 1) {
      dispatchMessage(w, kind === 0 ? 'message' : 'messageerror', value);
    } else if (kind === 2) {
      let err = value;
      if (!(err instanceof ErrorC)) {
        err = new ErrorC(call(strSlice, info.message, [info.message.indexOf(': ') + 2]));
      }
      if (node) {
        if (countOf(w, 'error') === 0) throw err;
        dispatch(w, new Event('error'), [err]);
      } else {
        const ev = new ErrorEvent('error', { message: info.message, filename: info.filename,
          lineno: info.lineno, colno: info.colno, error: err, cancelable: true });
        if (!dispatch(w, ev, [ev])) throw err;
      }
    } else if (kind === 3) {
      st.exited = true;
      st.code = info;
      delById(st.id);
      n.exited(st.id);
      const ws = st.waiters;
      st.waiters = [];
      for (let i = 0; i < ws.length; i++) ws[i](info);
      if (node) dispatch(w, new Event('exit'), [info]);
    } else if (kind === 5) {
      if (node) dispatch(w, new Event('online'), []);
    }
  }
  function terminate(w) {
    const st = w[WORKER];
    return new PromiseC((resolve) => {
      if (st.exited) { resolve(st.code); return; }
      st.terminated = true;
      push(st.waiters, resolve);
      n.terminate(st.id);
    });
  }
  function post(w, value, transfer) {
    const st = w[WORKER];
    if (!st.exited) n.post(st.id, value, transferArg(transfer, 'postMessage'));
  }

  // The web's Worker: new Worker(path or file: URL, { type: 'classic', name }).
  class Worker extends EventTarget {
    constructor(spec, options) {
      if (!new.target) throw new TypeErrorC("Failed to construct 'Worker': use new");
      if (arguments.length === 0) throw new TypeErrorC("Failed to construct 'Worker': 1 argument required");
      super();
      const type = options && options.type !== undefined ? StringC(options.type) : 'classic';
      if (type !== 'classic') {
        throw new TypeErrorC("Failed to construct 'Worker': type '" + type + "' is not supported (only 'classic')");
      }
      const file = fileOf(spec, callerDir(), "Failed to construct 'Worker'");
      startWorker(this, file, null, options && options.name !== undefined ? StringC(options.name) : '');
    }
    postMessage(value, transfer) {
      if (arguments.length === 0) throw new TypeErrorC("Failed to execute 'postMessage': 1 argument required");
      post(this, value, transfer);
    }
    terminate() { terminate(this); }
  }
  defineHandler(Worker.prototype, 'message');
  defineHandler(Worker.prototype, 'messageerror');
  defineHandler(Worker.prototype, 'error');

  // Node's worker_threads.Worker: an EventEmitter with 'online', 'message',
  // 'messageerror', 'error' and 'exit' events.
  class NodeWorker extends EventTarget {
    constructor(filename, options) {
      super();
      options = options || {};
      let file = null, source = null;
      if (options.eval) {
        if (typeof filename !== 'string') throw new TypeErrorC('The "filename" argument must be of type string with eval: true');
        source = filename;
      } else {
        file = fileOf(filename, native.cwd(), 'new Worker');
      }
      const st = startWorker(this, file, source, options.name !== undefined ? StringC(options.name) : '',
        options.workerData, options.transferList);
      this.threadId = st.threadId;
      this.resourceLimits = {};
    }
    postMessage(value, transfer) { post(this, value, transfer); }
    terminate() { return terminate(this); }
    ref() { const st = this[WORKER]; if (!st.exited) n.ref(st.id, true); return this; }
    unref() { const st = this[WORKER]; if (!st.exited) n.ref(st.id, false); return this; }
  }
  emitterMethods(NodeWorker.prototype);
  defineProperty(NodeWorker, 'name', { value: 'Worker' });

  // ---- inside a worker --------------------------------------------------
  let selfState = null;                    // {id, port, threadId, name, data}
  internal.workerSetup = function (id, threadId, name, data) {
    const g = globalThis;
    const port = new MessagePort(PORT);
    setId(port, id);
    selfState = { id, port, threadId, name, data };
    // one end, two faces: self (the web's) and parentPort (Node's)
    let selfCount = 0;
    const refFor = () => n.ref(id, selfCount + countOf(port, 'message') > 0);
    port.onListeners = (type) => { if (type === 'message') refFor(); };
    g.onListeners = (type, c) => { if (type === 'message') { selfCount = c; refFor(); } };
    setById(id, { port, deliver(p, kind, value) {
      if (kind === 0 || kind === 1) {
        const type = kind === 0 ? 'message' : 'messageerror';
        dispatchMessage(g, type, value);
        dispatchMessage(port, type, value);
      }
    } });
    defineProperty(g, 'onListeners', { enumerable: false });
    for (const m of ['addEventListener', 'removeEventListener', 'dispatchEvent']) {
      defineProperty(g, m, { value: EventTarget.prototype[m], writable: true, configurable: true });
    }
    defineProperty(g, 'self', { value: g, writable: true, configurable: true, enumerable: true });
    defineProperty(g, 'name', { value: name, writable: true, configurable: true, enumerable: true });
    defineProperty(g, 'postMessage', { writable: true, configurable: true, value: function postMessage(value, transfer) {
      if (arguments.length === 0) throw new TypeErrorC("Failed to execute 'postMessage': 1 argument required");
      n.post(id, value, transferArg(transfer, 'postMessage'));
    } });
    defineProperty(g, 'close', { writable: true, configurable: true, value: function close() { n.selfClose(); } });
    defineHandler(g, 'message');
    defineHandler(g, 'messageerror');
  };

  // The platform's objects are never cloned by their properties.
  if (typeof internal.platformProto === 'function') {
    for (const c of [EventTarget, Event]) internal.platformProto(c.prototype);
  }

  // ---- globals and require('worker_threads') -----------------------------
  for (const [k, v] of [['EventTarget', EventTarget], ['Event', Event], ['MessageEvent', MessageEvent],
    ['ErrorEvent', ErrorEvent], ['MessageChannel', MessageChannel], ['MessagePort', MessagePort],
    ['Worker', Worker]]) {
    defineProperty(G, k, { value: v, writable: true, configurable: true });
  }
  const builtins = internal.builtins || (internal.builtins = create(null));
  const wt = {
    get isMainThread() { return selfState === null; },
    get parentPort() { return selfState ? selfState.port : null; },
    get workerData() { return selfState ? selfState.data : null; },
    get threadId() { return selfState ? selfState.threadId : 0; },
    Worker: NodeWorker, MessageChannel, MessagePort,
    resourceLimits: {},
    // strait's own: how the messages this thread received were made
    // (direct: the sender made the value in this heap; snapshot: this
    // thread made it) and the milliseconds each side spent making them.
    messageStats() {
      const s = n.stats();
      return { direct: s[0], snapshot: s[1], senderMs: s[2], receiverMs: s[3] };
    },
  };
  defineProperty(builtins, 'worker_threads', { value: wt, writable: true, enumerable: true, configurable: true });
});
