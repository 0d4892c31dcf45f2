// path.js - POSIX path functions as Node's `path` module has them
// (normalize, join, resolve, relative, dirname, basename, extname,
// isAbsolute, parse, format, sep, delimiter). module.js uses them and
// offers them as require('path').
(function (native, internal) {
  'use strict';

  function check(p, name) {
    if (typeof p !== 'string') {
      throw new TypeError(`The "${name}" argument must be of type string. Received ${typeof p}`);
    }
  }

  // Resolves '.' and '..' segments; keeps a trailing slash.
  function normalize(p) {
    check(p, 'path');
    if (p === '') return '.';
    const abs = p.startsWith('/');
    const trailing = p.endsWith('/');
    const out = [];
    for (const seg of p.split('/')) {
      if (seg === '' || seg === '.') continue;
      if (seg === '..') {
        if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
        else if (!abs) out.push('..');
      } else {
        out.push(seg);
      }
    }
    let s = out.join('/');
    if (s === '' && !abs) s = '.';
    if (s !== '' && trailing) s += '/';
    return abs ? '/' + s : s;
  }

  function join(...parts) {
    for (const p of parts) check(p, 'path');
    const joined = parts.filter((p) => p !== '').join('/');
    return joined === '' ? '.' : normalize(joined);
  }

  // Right to left until absolute; the current directory is the base.
  function resolve(...parts) {
    let out = '';
    for (let i = parts.length - 1; i >= -1 && !out.startsWith('/'); i--) {
      const p = i >= 0 ? parts[i] : native.cwd();
      check(p, 'path');
      if (p === '') continue;
      out = out === '' ? p : `${p}/${out}`;
    }
    const n = normalize(out);
    return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
  }

  function isAbsolute(p) {
    check(p, 'path');
    return p.startsWith('/');
  }

  function trimSlashes(p) {
    let end = p.length;
    while (end > 1 && p[end - 1] === '/') end--;
    return p.slice(0, end);
  }

  function dirname(p) {
    check(p, 'path');
    if (p === '') return '.';
    const t = trimSlashes(p);
    const i = t.lastIndexOf('/');
    if (i < 0) return '.';
    if (i === 0) return '/';
    return trimSlashes(t.slice(0, i));
  }

  function basename(p, ext) {
    check(p, 'path');
    const t = trimSlashes(p);
    let b = t === '/' ? '' : t.slice(t.lastIndexOf('/') + 1);
    if (typeof ext === 'string' && ext !== '' && b !== ext && b.endsWith(ext)) {
      b = b.slice(0, -ext.length);
    }
    return b;
  }

  function extname(p) {
    const b = basename(p);
    const i = b.lastIndexOf('.');
    return i <= 0 ? '' : b.slice(i);
  }

  function relative(from, to) {
    const a = resolve(from).split('/').filter(Boolean);
    const b = resolve(to).split('/').filter(Boolean);
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return [...Array(a.length - i).fill('..'), ...b.slice(i)].join('/');
  }

  function parse(p) {
    check(p, 'path');
    const root = p.startsWith('/') ? '/' : '';
    const base = basename(p);
    const ext = extname(p);
    let dir = dirname(p);
    if (dir === '.' && !p.includes('/')) dir = '';
    return { root, dir, base, ext, name: ext ? base.slice(0, -ext.length) : base };
  }

  function format(o) {
    const dir = o.dir || o.root || '';
    const base = o.base || `${o.name || ''}${o.ext || ''}`;
    if (!dir) return base;
    return dir === o.root ? `${dir}${base}` : `${dir}/${base}`;
  }

  const path = {
    sep: '/', delimiter: ':', normalize, join, resolve, isAbsolute, dirname, basename,
    extname, relative, parse, format, toNamespacedPath: (p) => p,
  };
  path.posix = path;
  internal.path = path;
});
