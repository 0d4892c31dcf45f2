'use strict';
// Issue 12, point 8: JavaImporter (with `with`, with and without new),
// importPackage and importClass (Rhino compatibility), and their bad input.
// `with` is sloppy-mode only: the sloppy code is made with new Function.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

describe('JavaImporter', () => {
  it('gives the classes of its packages to a with block', () => {
    const run = new Function('imp', `
      with (imp) {
        const f = new File('a/b.txt');
        const l = new ArrayList();
        l.add(f.getName());
        return [String(l.get(0)), l instanceof ArrayList, f instanceof File];
      }`);
    const r = run(new JavaImporter(java.io, java.util));
    expect(r[0]).toBe('b.txt');
    expect(r[1]).toBe(true);
    expect(r[2]).toBe(true);
  });

  it('works without new', () => {
    const imp = JavaImporter(java.util);
    expect(imp.HashMap === java.util.HashMap).toBe(true);
    const run = new Function('imp', 'with (imp) { return new LinkedList().size(); }');
    expect(run(imp)).toBe(0);
  });

  it('imports single classes under their short names', () => {
    const imp = new JavaImporter(java.util.concurrent.atomic.AtomicInteger, java.io.File);
    expect(imp.AtomicInteger === java.util.concurrent.atomic.AtomicInteger).toBe(true);
    expect(imp.File === java.io.File).toBe(true);
    expect(imp.ArrayList).toBe(undefined);
  });

  it('leaves names that are no class to the scopes outside the with block', () => {
    const run = new Function('imp', `
      const local = 5;
      with (imp) {
        return [typeof Math, local, typeof notAClassAnywhere, typeof toString, typeof hasOwnProperty,
                typeof console.log, JSON.stringify([1])];
      }`);
    const r = run(new JavaImporter(java.io, java.util));
    expect(r[0]).toBe('object');
    expect(r[1]).toBe(5);
    expect(r[2]).toBe('undefined');
    // Object.prototype's names are not captured by the importer
    expect(r[3]).toBe('function');
    expect(r[4]).toBe('function');
    expect(r[5]).toBe('function');
    expect(r[6]).toBe('[1]');
  });

  it('shadows same-named globals inside the block, as with does', () => {
    const run = new Function('imp', 'with (imp) { return [Math === java.lang.Math, String === java.lang.String]; }');
    const r = run(new JavaImporter(java.lang));
    expect(r[0]).toBe(true);
    expect(r[1]).toBe(true);
  });

  it('the first package that has the class wins', () => {
    const imp = new JavaImporter(java.util, java.awt);
    expect(imp.List === java.util.List).toBe(true);
    const imp2 = new JavaImporter(java.awt, java.util);
    expect(imp2.List === java.awt.List).toBe(true);
  });

  it('is an object without a prototype', () => {
    expect(Object.getPrototypeOf(new JavaImporter(java.io))).toBe(null);
  });

  it('has importPackage and importClass methods that add to it (Rhino), also inside with', () => {
    const imp = new JavaImporter();
    expect(imp.ArrayList).toBe(undefined);
    imp.importPackage(java.util);
    expect(imp.ArrayList === java.util.ArrayList).toBe(true);
    const run = new Function('imp', `
      with (imp) {
        importClass(java.io.File);
        return new File('d/e').getName();
      }`);
    expect(run(imp)).toBe('e');
    expect(imp.File === java.io.File).toBe(true);
    expect(typeof globalThis.File).toBe('undefined');
    thrown(() => imp.importPackage(java.io.File), TypeError, /JavaImporter\.importPackage: argument 1 is not a Java package/);
    thrown(() => imp.importClass(java.io), TypeError, /JavaImporter\.importClass: argument 1 is not a Java class/);
    thrown(() => imp.importClass.call({}, java.io.File), TypeError, /not called on a JavaImporter/);
  });

  it('refuses what is neither a package nor a class', () => {
    thrown(() => new JavaImporter(3), TypeError, /JavaImporter: argument 1 is not a Java package or class/);
    thrown(() => JavaImporter(java.io, 'java.util'), TypeError, /JavaImporter: argument 2 is not a Java package or class/);
    thrown(() => JavaImporter({}), TypeError, /argument 1 is not a Java package or class/);
    thrown(() => JavaImporter(new java.util.ArrayList()), TypeError, /argument 1 is not a Java package or class/);
  });
});

describe('importPackage and importClass', () => {
  it('importClass defines a global named for the class', () => {
    importClass(java.util.concurrent.atomic.AtomicLong);
    expect(new AtomicLong(7).get()).toBe(7);
    expect(globalThis.AtomicLong === java.util.concurrent.atomic.AtomicLong).toBe(true);
    importClass(java.util.concurrent.atomic.AtomicLong);   // the same class again is fine
  });

  it('importClass refuses a name already defined as another global', () => {
    globalThis.Takenname = 1;
    globalThis.Vector = 1;
    thrown(() => importClass(java.util.Vector), TypeError,
      /importClass: cannot import java\.util\.Vector: a global named Vector is already defined/);
    expect(globalThis.Vector).toBe(1);
    delete globalThis.Vector;
    delete globalThis.Takenname;
  });

  it('importPackage resolves names that are not globals to classes of the package', () => {
    expect(typeof StringTokenizer).toBe('undefined');
    importPackage(java.util);
    expect(typeof StringTokenizer).toBe('function');
    expect(new StringTokenizer('a b c').countTokens()).toBe(3);
    expect(StringTokenizer === java.util.StringTokenizer).toBe(true);
  });

  it('keeps typeof of other undefined names and ReferenceErrors as they were', () => {
    expect(typeof noSuchNameAnywhere).toBe('undefined');
    thrown(() => noSuchNameAnywhere, ReferenceError);
    expect(typeof hasOwnProperty).toBe('function');
  });

  it('lets globals win over imported classes', () => {
    importPackage(java.lang);
    expect(typeof Math.max).toBe('function');
    expect(Math.max(1, 2)).toBe(2);               // JS Math, not java.lang.Math
    expect(Object === globalThis.Object).toBe(true);
    globalThis.Scanner = 'mine';
    importPackage(java.util);
    expect(Scanner).toBe('mine');
    delete globalThis.Scanner;
    expect(Scanner === java.util.Scanner).toBe(true);
  });

  it('finds classes of a package imported after a miss', () => {
    expect(typeof CRC32).toBe('undefined');
    importPackage(java.util.zip);
    expect(new CRC32().getValue()).toBe(0);
  });

  it('refuses what is not a package or not a class', () => {
    thrown(() => importPackage(java.io.File), TypeError, /importPackage: argument 1 is not a Java package \(it is a class: use importClass\)/);
    thrown(() => importPackage('java.io'), TypeError, /importPackage: argument 1 is not a Java package/);
    thrown(() => importClass(java.io), TypeError, /importClass: argument 1 is not a Java class \(it is a package: use importPackage\)/);
    thrown(() => importClass(5), TypeError, /importClass: argument 1 is not a Java class/);
  });
});
