// module.js - CommonJS modules as Node has them: require() of relative and
// absolute paths, .js / .json / directories (package.json "main", index.js),
// node_modules looked up through the parent directories (package.json
// "exports" with the require/node/default conditions and '*' patterns); one cache keyed by
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

  // The real path of file p, or null; throws ERR_ACCESS_DENIED when it is
  // outside the runtime's file root (strait_options.fs_root).
  function tryFile(p) {
    if (native.stat(p) !== FILE) return null;
    const real = native.realpath(p);
    native.checkFile(real, p);
    return real;
  }
  function tryExtensions(p) {
    return tryFile(p) || tryFile(p + '.js') || tryFile(p + '.json');
  }
  function tryIndex(dir) {
    return tryFile(dir + '/index.js') || tryFile(dir + '/index.json');
  }
  // The parsed package.json of dir, or null when it has none.
  function readPackage(dir) {
    const file = dir + '/package.json';
    if (native.stat(file) !== FILE) return null;
    try {
      const pkg = JSON.parse(native.readFile(file));
      return pkg !== null && typeof pkg === 'object' ? pkg : null;
    } catch (e) {
      e.message = `Error parsing ${file}: ${e.message}`;
      e.path = file;
      throw e;
    }
  }
  function readPackageMain(dir) {
    const pkg = readPackage(dir);
    return pkg && typeof pkg.main === 'string' && pkg.main !== '' ? pkg.main : null;
  }

  // ---- package.json "exports" (as Node resolves it for require) ------------
  const CONDITIONS = ['require', 'node', 'default'];
  // The file a target of "exports" names ('*' replaced by star), or null.
  function exportTarget(dir, target, star) {
    if (typeof target === 'string') {
      if (!target.startsWith('./')) return null;
      return resolve(dir, star === undefined ? target : target.split('*').join(star));
    }
    if (Array.isArray(target)) {
      for (const t of target) {
        const f = exportTarget(dir, t, star);
        if (f !== null) return f;
      }
      return null;
    }
    if (target !== null && typeof target === 'object') {
      for (const key of Object.keys(target)) {
        if (CONDITIONS.includes(key)) {
          const f = exportTarget(dir, target[key], star);
          if (f !== null) return f;
        }
      }
    }
    return null;
  }
  // The path that subpath ('.' or './x') of the package in dir exports,
  // or null when the package does not export it.
  function resolveExports(dir, exportsField, subpath) {
    let map = exportsField;
    if (typeof map === 'string' || Array.isArray(map) ||
        !Object.keys(map).some((k) => k.startsWith('.'))) {
      map = { '.': map };
    }
    if (Object.prototype.hasOwnProperty.call(map, subpath)) return exportTarget(dir, map[subpath]);
    let best = null;
    for (const key of Object.keys(map)) {
      const i = key.indexOf('*');
      if (i === -1) continue;
      const pre = key.slice(0, i);
      const post = key.slice(i + 1);
      if (subpath.length >= key.length - 1 && subpath.startsWith(pre) && subpath.endsWith(post) &&
          (best === null || pre.length > best.pre.length)) {
        best = { key, pre, star: subpath.slice(pre.length, subpath.length - post.length) };
      }
    }
    return best === null ? null : exportTarget(dir, map[best.key], best.star);
  }
  // For a package id ('name', 'name/sub', '@scope/name/sub') under a
  // node_modules directory: undefined when the package is absent or has no
  // "exports" (the classic lookup applies), else the exported file; an
  // unexported subpath throws ERR_PACKAGE_PATH_NOT_EXPORTED as in Node.
  function resolvePackageExports(nodeModules, id) {
    const parts = id.split('/');
    const n = id.startsWith('@') ? 2 : 1;
    if (parts.length < n || parts.slice(0, n).some((p) => p === '')) return undefined;
    const dir = nodeModules + '/' + parts.slice(0, n).join('/');
    if (native.stat(dir) !== DIR) return undefined;
    const pkg = readPackage(dir);
    if (!pkg || pkg.exports === undefined || pkg.exports === null) return undefined;
    const subpath = parts.length > n ? './' + parts.slice(n).join('/') : '.';
    const target = resolveExports(dir, pkg.exports, subpath);
    const f = target === null ? null : tryFile(target);
    if (f) return f;
    const err = new Error(subpath === '.'
      ? `No "exports" main defined in ${dir}/package.json`
      : `Package subpath '${subpath}' is not defined by "exports" in ${dir}/package.json`);
    err.code = 'ERR_PACKAGE_PATH_NOT_EXPORTED';
    throw requestError(err);
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
    native.checkAccess(id);
    const dirOnly = id.endsWith('/');
    if (isRelative(id)) {
      const f = resolveAt(resolve(from, id), dirOnly);
      if (f) return f;
      throw notFound(id, from);
    }
    for (let dir = from; ; dir = dirname(dir)) {
      if (basename(dir) !== 'node_modules') {
        const exported = resolvePackageExports(resolve(dir, 'node_modules'), id);
        if (exported !== undefined) return exported;
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
    native.checkAccess(path);
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
