'use strict';
// Issue 12 point 5: classes and packages as values. A class converts to
// '[JavaClass name]' whatever statics it has, C.class is its
// java.lang.Class, array classes construct, constructors and methods are
// picked by short or full signatures, and a name no class has is a package
// until it is used as a class.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

const Files = Java.type('java.nio.file.Files');
const ToolProvider = Java.type('javax.tools.ToolProvider');
const URLClassLoader = Java.type('java.net.URLClassLoader');
const Thread = Java.type('java.lang.Thread');

// Classes of our own, compiled here and found through the context class
// loader: two Date types of one simple name (an ambiguous short signature)
// and a class in a package nothing has loaded yet.
const dir = Files.createTempDirectory('strait-classvalues', []);
const SOURCES = {
  'cvone/Date.java': 'package cvone; public class Date { }',
  'cvtwo/Date.java': 'package cvtwo; public class Date { }',
  'cvpkg/deep/Overloads.java':
    'package cvpkg.deep;\n' +
    'public class Overloads {\n' +
    '  public String tag = "none";\n' +
    '  public Overloads() { }\n' +
    '  public Overloads(cvone.Date d) { tag = "one"; }\n' +
    '  public Overloads(cvtwo.Date d) { tag = "two"; }\n' +
    '  public static String take(cvone.Date d) { return "one"; }\n' +
    '  public static String take(cvtwo.Date d) { return "two"; }\n' +
    '  public static String toString(int x) { return "static " + x; }\n' +
    '  public static int valueOf(int x) { return x + 1; }\n' +
    '}\n',
};
const files = [];
for (const name of Object.keys(SOURCES)) {
  const f = dir.resolve(name);
  Files.createDirectories(f.getParent(), []);
  Files.writeString(f, SOURCES[name], []);
  files.push(f.toString());
}
const rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, ['-d', dir.toString()].concat(files));
Thread.currentThread().setContextClassLoader(new URLClassLoader([dir.toUri().toURL()]));

describe('a class as a value', () => {
  it('converts to [JavaClass name] in String(), + and template literals', () => {
    expect(String(java.lang.Integer)).toBe('[JavaClass java.lang.Integer]');
    expect('' + java.lang.String).toBe('[JavaClass java.lang.String]');
    expect(`${java.util.ArrayList}`).toBe('[JavaClass java.util.ArrayList]');
    expect(String(java.util.Map.Entry)).toBe('[JavaClass java.util.Map$Entry]');
    expect(String(Java.type('int[]'))).toBe('[JavaClass int[]]');
    expect(String(Java.type('java.lang.String[][]'))).toBe('[JavaClass java.lang.String[][]]');
    expect([java.lang.Math].join()).toBe('[JavaClass java.lang.Math]');
  });

  it('keeps static toString and valueOf callable while they do not decide the conversion', () => {
    const I = java.lang.Integer;
    expect(I.toString(255)).toBe('255');
    expect(I['toString(int,int)'](255, 16)).toBe('ff');
    expect(I.valueOf('12')).toBe(12);
    const O = Java.type('cvpkg.deep.Overloads');
    expect(rc).toBe(0);
    expect(O.toString(3)).toBe('static 3');
    expect(O.valueOf(3)).toBe(4);
    expect(String(O)).toBe('[JavaClass cvpkg.deep.Overloads]');
    expect(O + '').toBe('[JavaClass cvpkg.deep.Overloads]');
    // Integer has no static toString(): calling it with nothing is an overload error
    thrown(() => I.toString(), TypeError, /java\.lang\.Integer\.toString/);
  });

  it('gives C.toString() the same text when the class has no static toString', () => {
    expect(java.util.ArrayList.toString()).toBe('[JavaClass java.util.ArrayList]');
    expect(Object.keys(java.util.ArrayList).indexOf('toString')).toBe(-1);
  });

  it('does not depend on what a script replaces', () => {
    const saved = [Object.prototype.toString, Function.prototype.toString];
    Object.prototype.toString = () => 'hijacked';
    Function.prototype.toString = () => 'hijacked';
    try {
      expect(String(java.util.HashSet)).toBe('[JavaClass java.util.HashSet]');
    } finally {
      [Object.prototype.toString, Function.prototype.toString] = saved;
    }
  });

  it('stays a function for typeof', () => {
    expect(typeof java.lang.Integer).toBe('function');
    expect(typeof Java.type('int[]')).toBe('function');
  });
});

describe('C.class and Java.typeName', () => {
  it('gives the java.lang.Class, one wrapper each time', () => {
    const c = java.lang.String.class;
    expect(c instanceof java.lang.Class).toBe(true);
    expect(c.getName()).toBe('java.lang.String');
    expect(java.lang.String.class).toBe(c);
    expect(Java.type('int').class).toBe(java.lang.Integer.TYPE);
    expect(Java.type('int[]').class.getName()).toBe('[I');
    expect(java.util.Map.Entry.class.getName()).toBe('java.util.Map$Entry');
  });

  it('passes C.class where Java expects a Class', () => {
    const a = java.lang.reflect.Array.newInstance(java.lang.String.class, 2);
    expect(a.length).toBe(2);
    expect(java.lang.CharSequence.class.isAssignableFrom(java.lang.String.class)).toBe(true);
  });

  it('round-trips through Java.type', () => {
    const S = java.lang.String;
    expect(Java.type(S.class)).toBe(S);
    expect(Java.type(S)).toBe(S);
    expect(Java.type(new java.util.ArrayList().getClass())).toBe(java.util.ArrayList);
    expect(Java.type(Java.type('long[][]').class)).toBe(Java.type('long[][]'));
    thrown(() => Java.type({}), TypeError, /class name/);
    thrown(() => Java.type(new java.lang.Object()), TypeError, /class name/);
  });

  it('names classes as Java source does and gives undefined for other values', () => {
    expect(Java.typeName(java.lang.Integer)).toBe('java.lang.Integer');
    expect(Java.typeName(java.lang.Integer.class)).toBe('java.lang.Integer');
    expect(Java.typeName(Java.type('int[]'))).toBe('int[]');
    expect(Java.typeName(Java.type('java.lang.String[][]'))).toBe('java.lang.String[][]');
    expect(Java.typeName(java.util.Map.Entry)).toBe('java.util.Map$Entry');
    expect(Java.typeName(Java.type('int'))).toBe('int');
    for (const v of [undefined, null, 1, 'java.lang.String', {}, function () {}, java.util, new java.lang.Object()]) {
      expect(Java.typeName(v)).toBeUndefined();
    }
  });
});

describe('array classes', () => {
  it('construct an array of the given length', () => {
    const IntArray = Java.type('int[]');
    const a = new IntArray(3);
    expect(a.length).toBe(3);
    expect(java.util.Arrays.toString(a)).toBe('[0, 0, 0]');
    a[1] = 7;
    expect(a[1]).toBe(7);
    expect(a instanceof IntArray).toBe(true);
    const m = new (Java.type('java.lang.String[][]'))(2);
    expect(m.length).toBe(2);
    expect(m[0]).toBeNull();
    m[0] = new (Java.type('java.lang.String[]'))(1);
    expect(m[0].length).toBe(1);
    expect(m.getClass().getName()).toBe('[[Ljava.lang.String;');
    expect(new IntArray(0).length).toBe(0);
  });

  it('refuse a bad length with the array type in the message', () => {
    const IntArray = Java.type('int[]');
    thrown(() => new IntArray(-1), RangeError, /^new int\[\]\(length\): invalid length -1/);
    thrown(() => new IntArray(1.5), RangeError, /invalid length 1\.5/);
    thrown(() => new IntArray(2 ** 31), RangeError, /invalid length/);
    thrown(() => new IntArray(NaN), RangeError, /invalid length/);
    thrown(() => new IntArray('3'), TypeError, /^new int\[\]\(length\): length must be a number, got string$/);
    thrown(() => new IntArray(), TypeError, /expected 1 argument, got 0/);
    thrown(() => new IntArray(2, 3), TypeError, /expected 1 argument, got 2/);
    thrown(() => IntArray(3), TypeError, /must be called with new/);
  });
});

describe('constructors and methods by signature', () => {
  const File = java.io.File;
  it('pick a constructor by short or full type names', () => {
    expect(new (File['(String,String)'])('/tmp', 'a').getPath()).toBe('/tmp/a');
    expect(new (File['( String , String )'])('/tmp', 'b').getPath()).toBe('/tmp/b');
    expect(new (File['new(java.lang.String,java.lang.String)'])('/tmp', 'c').getPath()).toBe('/tmp/c');
    expect(new (File['File(String)'])('/tmp').getPath()).toBe('/tmp');
    // called without new, a constructor function constructs too
    expect(File['(String)']('/x').getPath()).toBe('/x');
    const E = java.util.AbstractMap.SimpleEntry;
    const e = new (E['(Object,Object)'])('k', 1);
    expect(new (E['(Map.Entry)'])(e).getKey()).toBe('k');
    expect(new (E['(java.util.Map$Entry)'])(e).getValue()).toBe(1);
    expect(new (java.lang.Object['()'])() instanceof java.lang.Object).toBe(true);
  });

  it('pick methods by short names, arrays and varargs', () => {
    expect(java.lang.Math['abs(int)'](-3)).toBe(3);
    expect(java.lang.String['format(String,Object...)']('%s-%s', 1, 2)).toBe('1-2');
    expect(java.lang.String['format(String,Object[])']('%s', ['z'])).toBe('z');
    expect(java.lang.String['valueOf(char[])'](['h', 'i'])).toBe('hi');
    expect(new java.lang.StringBuilder()['append(char)']('q').toString()).toBe('q');
  });

  it('refuse an unknown signature with the candidates listed', () => {
    thrown(() => File['(Strin,String)'], TypeError,
      /^java\.io\.File has no constructor \(Strin,String\); candidates: .*java\.io\.File\(java\.lang\.String,java\.lang\.String\)/);
    thrown(() => java.lang.Math['abs(nt)'], TypeError, /^java\.lang\.Math has no static method abs\(nt\); candidates: abs\(int\)/);
    // a name that is neither a method nor the class is not a constructor
    thrown(() => File['nosuch(String)'], TypeError, /^java\.io\.File has no static method nosuch\(String\)$/);
    // a tail of a name matches only at a '.' or '$'
    thrown(() => File['(ring)'], TypeError, /has no constructor \(ring\)/);
    thrown(() => java.lang.Math['()'], TypeError, /^java\.lang\.Math has no constructor \(\)$/);
    expect('(Strin)' in File).toBe(false);
  });

  it('refuse an ambiguous short signature, and take the full names', () => {
    const O = Java.type('cvpkg.deep.Overloads');
    thrown(() => O['take(Date)'], TypeError, /signature take\(Date\) is ambiguous, it names take\(cv(one|two)\.Date\), take\(cv(one|two)\.Date\)/);
    thrown(() => O['(Date)'], TypeError, /ambiguous/);
    expect(O['take(cvtwo.Date)'](new (Java.type('cvtwo.Date'))())).toBe('two');
    expect(new (O['(cvone.Date)'])(new (Java.type('cvone.Date'))()).tag).toBe('one');
  });
});

describe('packages', () => {
  it('make a name no class has a package, used as a class only by new', () => {
    const p = java.lang.nosuch.Foo;
    expect(typeof p).toBe('object');
    expect(typeof java.lang.nosuch).toBe('object');
    expect(java.lang.nosuch.Foo).toBe(p);
    expect(String(p)).toBe('[JavaPackage java.lang.nosuch.Foo]');
    expect(`${java.lang}`).toBe('[JavaPackage java.lang]');
    expect('' + Packages.java.util).toBe('[JavaPackage java.util]');
    thrown(() => new java.lang.nosuch.Foo(), TypeError, /^class java\.lang\.nosuch\.Foo not found$/);
    thrown(() => new java.lang.nosuch.Foo(1, 2), TypeError, /^class java\.lang\.nosuch\.Foo not found$/);
    thrown(() => java.lang.nosuch.Foo(), TypeError, /java\.lang\.nosuch\.Foo/);
    thrown(() => ({}) instanceof java.lang.nosuch.Foo, TypeError, /^class java\.lang\.nosuch\.Foo not found$/);
    thrown(() => Java.type(java.lang.nosuch.Foo), TypeError, /^class java\.lang\.nosuch\.Foo not found$/);
    thrown(() => Java.array(java.lang.nosuch.Foo, 1), TypeError, /^class java\.lang\.nosuch\.Foo not found$/);
    expect(Java.typeName(java.lang.nosuch.Foo)).toBeUndefined();
  });

  it('find a class under a package nothing had loaded', () => {
    expect(rc).toBe(0);
    const pkg = Packages.cvpkg.deep;
    expect(typeof pkg).toBe('object');
    expect(String(pkg)).toBe('[JavaPackage cvpkg.deep]');
    const O = pkg.Overloads;
    expect(typeof O).toBe('function');
    expect(O).toBe(Java.type('cvpkg.deep.Overloads'));
    expect(new O().tag).toBe('none');
    thrown(() => new pkg.Missing(), TypeError, /^class cvpkg\.deep\.Missing not found$/);
  });

  it('still resolve classes and nested classes as before', () => {
    expect(typeof java.util.ArrayList).toBe('function');
    expect(java.util.Map.Entry).toBe(Java.type('java.util.Map$Entry'));
    expect(typeof java.util).toBe('object');
  });
});

describe('under a host access policy', () => {
  const JsRuntime = Packages.org.strait.JsRuntime;
  const HostAccess = Packages.org.strait.HostAccess;
  const evalIn = (rt, src) => { try { return rt.eval(src); } catch (e) { return 'THROW ' + e.message; } };

  it('keeps denied classes denied and C.class refused where java.lang.Class is', () => {
    const all = new java.util.function.Predicate({ test: () => true });
    const rt = JsRuntime.newBuilder().hostAccess(HostAccess.GIVEN).classFilter(all).build();
    try {
      expect(evalIn(rt, 'String(java.lang.Integer)')).toBe('[JavaClass java.lang.Integer]');
      expect(evalIn(rt, 'java.lang.String.class')).toMatch(/java\.lang\.Class is not accessible: denied by the runtime's host access policy \(GIVEN\)/);
      expect(evalIn(rt, 'java.lang.reflect.Method')).toMatch(/java\.lang\.reflect\.Method is not accessible: denied/);
      expect(evalIn(rt, 'typeof java.lang.nosuch.Foo')).toBe('object');
      expect(evalIn(rt, 'new java.lang.nosuch.Foo()')).toMatch(/TypeError: class java\.lang\.nosuch\.Foo not found/);
    } finally {
      rt.close();
    }
  });

  it('has no package globals without lookups', () => {
    for (const a of [HostAccess.NONE, HostAccess.GIVEN]) {
      const rt = JsRuntime.newBuilder().hostAccess(a).build();
      try {
        expect(evalIn(rt, 'typeof java + typeof Packages + typeof Java')).toBe('undefinedundefinedundefined');
      } finally {
        rt.close();
      }
    }
  });
});
