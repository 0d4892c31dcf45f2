'use strict';
// require(): relative paths, JSON, directories, node_modules, cycles, the
// cache, __filename / __dirname, and MODULE_NOT_FOUND.
const { describe, it, expect } = require('./runner');

const FIX = __dirname + '/fixtures/mod';

describe('require', () => {
  it('loads a relative module and its exports', () => {
    const m = require('./fixtures/mod/value');
    expect(m.answer).toBe(42);
    expect(m.double(21)).toBe(42);
  });

  it('accepts the .js extension and absolute paths', () => {
    expect(require('./fixtures/mod/value.js')).toBe(require('./fixtures/mod/value'));
    expect(require(FIX + '/value.js')).toBe(require('./fixtures/mod/value'));
  });

  it('returns module.exports when a module replaces it', () => {
    const greet = require('./fixtures/mod/replaced');
    expect(typeof greet).toBe('function');
    expect(greet('you')).toBe('hi you');
  });

  it('parses .json files', () => {
    const data = require('./fixtures/mod/data.json');
    expect(data).toEqual({ name: 'fixture', list: [1, 2, 3], nested: { ok: true } });
  });

  it('loads a directory through its index.js', () => {
    expect(require('./fixtures/mod/dir')).toBe('dir index');
  });

  it('resolves ../ relative to the requiring module', () => {
    expect(require('./fixtures/mod/relative_parent')).toBe(42);
  });

  it('runs a module once and caches it', () => {
    const first = require('./fixtures/mod/counter');
    const again = require('./fixtures/mod/counter');
    expect(again).toBe(first);
    expect(globalThis.__counterLoads).toBe(1);
  });

  it('exposes the cache as require.cache, keyed by absolute path', () => {
    require('./fixtures/mod/value');
    const key = Object.keys(require.cache).find((k) => k.endsWith('/fixtures/mod/value.js'));
    expect(key).toBeDefined();
    expect(key[0]).toBe('/');
    expect(require.cache[key].exports.answer).toBe(42);
  });

  it('hands a partial exports object to a cycle, as Node does', () => {
    const a = require('./fixtures/mod/cycle_a');
    const b = require('./fixtures/mod/cycle_b');
    expect(a.done).toBe(true);
    expect(b.done).toBe(true);
    expect(b.sawADone).toBe(false);
    expect(a.sawBDone).toBe(true);
  });

  it('sets __filename, __dirname and module fields', () => {
    const n = require('./fixtures/mod/names');
    expect(n.filename).toMatch(/\/tests\/js\/fixtures\/mod\/names\.js$/);
    expect(n.dirname).toMatch(/\/tests\/js\/fixtures\/mod$/);
    expect(n.moduleFilename).toBe(n.filename);
    expect(n.isMain).toBe(false);
    expect(n.thisIsExports).toBe(true);
  });

  it('gives the main module its own __filename and require.main', () => {
    expect(__filename).toBe(process.argv[1]);
    expect(require.main).toBe(module);
    expect(__dirname).toBe(__filename.slice(0, __filename.lastIndexOf('/')));
  });

  it('finds packages in node_modules (package.json main, index.js, inner files)', () => {
    const p = require('./fixtures/mod/uses_pkg');
    expect(p.fake).toEqual({ name: 'fakepkg main' });
    expect(p.plain).toBe('plainpkg index');
    expect(p.sub).toBe('fakepkg extra');
  });

  it('resolves packages laid out as npm installs them (scoped, nested and hoisted deps, main without extension)', () => {
    const req = require('./fixtures/mod/require_here');
    expect(req('@acme/units').double(21)).toBe(42);
    expect(req('@acme/units').name).toBe('@acme/units');
    expect(req('npmlike')).toEqual({ nested: 'helper nested in npmlike', hoisted: 8 });
    expect(req('helper')).toBe('helper at the top');
  });

  it('follows package.json "exports": require condition, subpath patterns, unexported paths', () => {
    const req = require('./fixtures/mod/require_here');
    expect(req('expkg')).toBe('expkg main (require condition)');
    expect(req('expkg/features/a')).toBe('feature a');
    expect(req('expkg/package.json').name).toBe('expkg');
    let err;
    try {
      req('expkg/dist/legacy.js');
    } catch (e) {
      err = e;
    }
    expect(err && err.code).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
    expect(err.message).toContain('./dist/legacy.js');
    expect(() => req('expkg/features/internal/x')).toThrow(/not defined by "exports"/);
  });

  it('looks for node_modules in the parent directories', () => {
    expect(require('./fixtures/mod/nested/deeper/finds_up')).toBe('plainpkg index');
  });

  it('throws MODULE_NOT_FOUND naming the module', () => {
    let err;
    try {
      require('./fixtures/mod/does-not-exist');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('MODULE_NOT_FOUND');
    expect(err.message).toContain('does-not-exist');
  });

  it('does not look in node_modules for a relative path or a missing package', () => {
    expect(() => require('plainpkg')).toThrow(/plainpkg/);
    expect(() => require('./plainpkg')).toThrow(/plainpkg/);
  });

  it('drops a module that threw from the cache, so it can load again', () => {
    expect(() => require('./fixtures/mod/throws_once')).toThrow('first load fails');
    expect(require('./fixtures/mod/throws_once')).toBe('loaded on try 2');
  });

  it('reports a SyntaxError in a module with its file and line', () => {
    let err;
    try {
      require('./fixtures/mod/bad_syntax');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SyntaxError);
    const where = String(err.sourceURL || err.fileName || err.stack || '') + ' ' + String(err.line || '');
    expect(where).toContain('bad_syntax.js');
    expect(err.line).toBe(3);
  });

  it('rejects a non-string id with a TypeError', () => {
    expect(() => require(42)).toThrow(TypeError);
  });
  it('refuses devices, FIFOs and files over 1 GiB with a clear error instead of reading without end', () => {
    for (const dev of ['/dev/zero', '/dev/urandom']) {
      expect(() => require(dev)).toThrow(/Cannot find module/);
    }
    // a sparse file one byte over the limit: refused by its size, nothing read
    const dir = java.nio.file.Files.createTempDirectory('strait-big');
    const big = dir.resolve('big.js').toString();
    const f = new java.io.RandomAccessFile(big, 'rw');
    try { f.setLength(1024 * 1024 * 1024 + 1); } finally { f.close(); }
    let err;
    try { require(big); } catch (e) { err = e; }
    java.nio.file.Files.delete(dir.resolve('big.js'));
    java.nio.file.Files.delete(dir);
    expect(err && err.code).toBe('EFBIG');
    expect(err.message).toMatch(/larger than 1 GiB/);
  });
});
