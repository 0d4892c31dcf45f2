// module.js - CommonJS modules as Node has them: require() of relative and
// absolute paths, .js / .json / directories (package.json "main", index.js),
// node_modules looked up through the parent directories; one cache keyed by
// real path (require.cache); a module required while it is still loading
// returns its partial exports; 'path' and 'util' are built in.
// internal.runMain / internal.resolveMain serve
// strait_run_main(); a global require() resolves from the current directory
// (for `strait -e`).
(function (native, internal) {
  'use strict';

  const { dirname, basename } = internal.path;
  // base + p, normalized, without a trailing slash.
  function resolve(base, p) {
    return internal.path.resolve(base, p);
  }

  // ---- resolution --------------------------------------------------------
  const FILE = 1;
  const DIR = 2;

  function tryFile(p) {
    return native.stat(p) === FILE ? native.realpath(p) : null;
  }
  function tryExtensions(p) {
    return tryFile(p) || tryFile(p + '.js') || tryFile(p + '.json');
  }
  function tryIndex(dir) {
    return tryFile(dir + '/index.js') || tryFile(dir + '/index.json');
  }
  function readPackageMain(dir) {
    const file = dir + '/package.json';
    if (native.stat(file) !== FILE) return null;
    let pkg;
    try {
      pkg = JSON.parse(native.readFile(file));
    } catch (e) {
      e.message = `Error parsing ${file}: ${e.message}`;
      e.path = file;
      throw e;
    }
    return pkg && typeof pkg.main === 'string' && pkg.main !== '' ? pkg.main : null;
  }
  function tryDirectory(dir) {
    const main = readPackageMain(dir);
    if (main !== null) {
      const m = resolve(dir, main);
      const f = tryExtensions(m) || (native.stat(m) === DIR ? tryIndex(m) : null);
      if (f) return f;
    }
    return tryIndex(dir);
  }
  function resolveAt(p, dirOnly) {
    if (!dirOnly) {
      const f = tryExtensions(p);
      if (f) return f;
    }
    return native.stat(p) === DIR ? tryDirectory(p) : null;
  }
  function isRelative(id) {
    return id === '.' || id === '..' || id.startsWith('./') || id.startsWith('../') ||
      id.startsWith('/');
  }
  // Modules built into the runtime: require('util') and require('path'),
  // also as 'node:util' / 'node:path'. Other bootstrap code may add more.
  const builtins = internal.builtins || (internal.builtins = Object.create(null));
  builtins.path = internal.path;
  builtins.util = {
    inspect: internal.inspect,
    format: (...args) => internal.format(args),
    inherits(ctor, superCtor) {
      Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
      Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
    },
  };
  function builtin(id) {
    const name = id.startsWith('node:') ? id.slice(5) : id;
    return Object.prototype.hasOwnProperty.call(builtins, name) ? builtins[name] : undefined;
  }

  // An error about the caller's request: without the loader's own file and
  // line, so reports start with the message (the stack still shows where).
  function requestError(err) {
    delete err.line;
    delete err.column;
    delete err.sourceURL;
    return err;
  }

  function notFound(id, from) {
    const err = new Error(`Cannot find module '${id}' from '${from}'`);
    err.code = 'MODULE_NOT_FOUND';
    return requestError(err);
  }

  // The real path that require(id) loads from directory `from`.
  function resolveFilename(id, from) {
    if (typeof id !== 'string') {
      throw requestError(new TypeError(`require: module id must be a string, got ${typeof id}`));
    }
    if (id === '') throw requestError(new TypeError('require: module id must be a non-empty string'));
    const dirOnly = id.endsWith('/');
    if (isRelative(id)) {
      const f = resolveAt(resolve(from, id), dirOnly);
      if (f) return f;
      throw notFound(id, from);
    }
    for (let dir = from; ; dir = dirname(dir)) {
      if (basename(dir) !== 'node_modules') {
        const f = resolveAt(resolve(dir, 'node_modules/' + id), dirOnly);
        if (f) return f;
      }
      if (dir === '/' || dir === '.') break;
    }
    throw notFound(id, from);
  }

  // ---- modules -----------------------------------------------------------
  const cache = Object.create(null);
  let mainModule;
  // Files compiled inside the module wrapper: their line-1 columns are
  // shifted by native.wrapLength.
  const wrapped = new Set();
  internal.wrapOffset = (file) => (wrapped.has(file) ? native.wrapLength : 0);

  class Module {
    constructor(id, filename, parent) {
      this.id = id;
      this.path = dirname(filename);
      this.exports = {};
      this.filename = filename;
      this.loaded = false;
      this.children = [];
      Object.defineProperty(this, 'parent', { value: parent, writable: true, enumerable: false });
      if (parent) parent.children.push(this);
    }
  }

  function stripBOM(s) {
    return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
  }

  function makeRequire(mod) {
    const from = mod.path;
    function require(id) {
      return requireFrom(mod, from, id);
    }
    require.resolve = function resolveId(id) {
      if (typeof id === 'string' && builtin(id) !== undefined) return id;
      return resolveFilename(id, from);
    };
    require.cache = cache;
    require.main = mainModule;
    return require;
  }

  function load(mod) {
    const filename = mod.filename;
    const req = makeRequire(mod);
    Object.defineProperty(mod, 'require', { value: req, writable: true, configurable: true });
    const text = stripBOM(native.readFile(filename));
    if (filename.endsWith('.json')) {
      try {
        mod.exports = JSON.parse(text);
      } catch (e) {
        e.message = `${filename}: ${e.message}`;
        e.sourceURL = filename;
        delete e.line;
        delete e.column;
        throw e;
      }
    } else {
      const source = text.startsWith('#!') ? '//' + text.slice(2) : text;
      wrapped.add(filename);
      const fn = native.compile(source, filename);
      fn.call(mod.exports, mod.exports, req, mod, filename, mod.path);
    }
    mod.loaded = true;
  }

  // Loads (or takes from the cache) the module `id` for parent. A module
  // that throws while loading leaves the cache, as in Node.
  function requireFrom(parent, from, id) {
    if (typeof id === 'string') {
      const b = builtin(id);
      if (b !== undefined) return b;
    }
    const filename = resolveFilename(id, from);
    const cached = cache[filename];
    if (cached !== undefined) {
      if (parent && !parent.children.includes(cached)) parent.children.push(cached);
      return cached.exports;
    }
    const mod = new Module(filename, filename, parent);
    cache[filename] = mod;
    let ok = false;
    try {
      load(mod);
      ok = true;
    } finally {
      if (!ok) {
        delete cache[filename];
        if (parent) {
          const i = parent.children.indexOf(mod);
          if (i !== -1) parent.children.splice(i, 1);
        }
      }
    }
    return mod.exports;
  }

  // The file strait_run_main() would load for path, or null.
  internal.resolveMain = function resolveMain(path) {
    return resolveAt(resolve(native.cwd(), path), path.endsWith('/'));
  };

  // Runs filename as the main module (require.main === module there).
  internal.runMain = function runMain(filename, given) {
    const argv = globalThis.process && globalThis.process.argv;
    if (argv && argv.length > 1 && argv[1] === given) argv[1] = resolve(native.cwd(), given);
    const mod = new Module('.', filename, null);
    mainModule = mod;
    cache[filename] = mod;
    let ok = false;
    try {
      load(mod);
      ok = true;
    } finally {
      if (!ok) delete cache[filename];
    }
    return mod.exports;
  };

  internal.Module = Module;

  // The global require() of code that is not a module (`strait -e`):
  // resolves from the current directory at each call.
  function globalRequire(id) {
    return requireFrom(null, native.cwd(), id);
  }
  globalRequire.resolve = function resolveId(id) {
    if (typeof id === 'string' && builtin(id) !== undefined) return id;
    return resolveFilename(id, native.cwd());
  };
  globalRequire.cache = cache;
  Object.defineProperty(globalRequire, 'main', { get: () => mainModule });
  Object.defineProperty(globalThis, 'require', {
    value: globalRequire, writable: true, configurable: true, enumerable: false,
  });
});
