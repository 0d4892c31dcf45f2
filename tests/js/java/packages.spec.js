'use strict';
// Point 1: package objects, Java.type, array types, nested classes.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

describe('packages', () => {
  it('reach classes through the package globals', () => {
    expect(typeof java.util.ArrayList).toBe('function');
    expect(java.util.ArrayList).toBe(java.util.ArrayList);
    expect(Packages.java.util.ArrayList).toBe(java.util.ArrayList);
    expect(typeof javax).toBe('object');
    expect(typeof jdk).toBe('object');
    expect(typeof org).toBe('object');
    expect(typeof com).toBe('object');
    expect(typeof net).toBe('object');
  });

  it('reach classes on the class path through Packages', () => {
    // strait.jar is on the class path like any user jar
    expect(typeof Packages.org.strait.JsRuntime).toBe('function');
    expect(Packages.org.strait.JsRuntime.name).toBe('org.strait.JsRuntime');
    expect(typeof org.strait.JsRuntime.create).toBe('function');
  });

  it('turn resolved children into plain properties', () => {
    const u = java.util;
    expect(Object.getOwnPropertyNames(java).indexOf('util') >= 0).toBe(true);
    expect(Object.getOwnPropertyNames(u).indexOf('HashMap')).toBe(-1);
    const hm = u.HashMap;
    expect(Object.getOwnPropertyNames(u).indexOf('HashMap') >= 0).toBe(true);
    expect(Object.getOwnPropertyDescriptor(u, 'HashMap').value).toBe(hm);
  });

  it('keep working through a catch-all held after its package was deleted', () => {
    // Object.getPrototypeOf(pkg) is the catch-all that resolves names; held
    // alone after the package object is gone, a lookup used to store into
    // the collected package object: a crash, or a property on whatever
    // object JSC made in that cell since
    const cases = [
      ['javax', 'naming', 'InitialContext'], ['javax', 'script', 'ScriptEngine'],
      ['java', 'text', 'SimpleDateFormat'], ['java', 'nio', 'ByteBuffer'],
      ['java', 'math', 'BigDecimal'], ['java', 'net', 'URI'],
    ];
    const held = cases.map(([root, pkg, cls]) => {
      const catchAll = Object.getPrototypeOf(globalThis[root][pkg]);
      expect(delete globalThis[root][pkg]).toBe(true);
      return [catchAll, root + '.' + pkg + '.' + cls, cls];
    });
    let junk = [];
    for (let i = 0; i < 100000; i++) junk.push({ i, s: 'x' + i });
    junk = null;
    Java.__gc();
    const fresh = [];   // plain objects, as big as a package object: they reuse its cell
    for (let i = 0; i < 50000; i++) fresh.push({});
    for (const [catchAll, name, cls] of held) {
      const C = catchAll[cls];
      expect(typeof C).toBe('function');
      expect(C).toBe(Java.type(name));
    }
    // nothing was stored into an object that took a collected package's cell
    expect(fresh.filter((o) => Object.keys(o).length > 0).length).toBe(0);
  });

  it('makes a name a JDK package does not have a package, and names the class when it is used as one', () => {
    // Rhino's and Nashorn's rule: reading the name is not an error
    const p = java.util.NoSuchClassAnywhere;
    expect(typeof p).toBe('object');
    expect(String(p)).toBe('[JavaPackage java.util.NoSuchClassAnywhere]');
    thrown(() => new java.util.NoSuchClassAnywhere(), TypeError, /^class java\.util\.NoSuchClassAnywhere not found$/);
  });

  it('resolves Java.type names, arrays and nested classes', () => {
    expect(Java.type('java.util.HashMap')).toBe(java.util.HashMap);
    const IntArray = Java.type('int[]');
    expect(IntArray.name).toBe('[I');
    expect(Java.type('java.lang.String[][]').name).toBe('[[Ljava.lang.String;');
    expect(Java.type('java.util.Map$Entry')).toBe(java.util.Map.Entry);
    expect(Java.type('java.util.Map.Entry')).toBe(java.util.Map.Entry);
    expect(java.util.Map.Entry.name).toBe('java.util.Map$Entry');
  });

  it('throws a TypeError for a class that does not exist', () => {
    thrown(() => Java.type('x.y.Z'), TypeError, /^class x\.y\.Z not found$/);
    thrown(() => Java.type(42), TypeError, /class name/);
  });

  it('lets JS built-ins through package objects', () => {
    expect(typeof java.toString).toBe('function');
    expect(java.hasOwnProperty('lang')).toBe(false);
  });
});
