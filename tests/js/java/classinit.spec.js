'use strict';
// A Java class whose static initializer throws, reached from JS through the
// launcher's bridge: the first access is a JS Error naming the class and
// the cause (ExceptionInInitializerError), every later access a JS Error
// with NoClassDefFoundError "Could not initialize class", never a crash.
// The classes are compiled here (javax.tools) into a temporary directory
// and found through the thread's context class loader, one class per case
// so each case sees a class that was never initialized.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

const Files = Java.type('java.nio.file.Files');
const Paths = Java.type('java.nio.file.Paths');
const ToolProvider = Java.type('javax.tools.ToolProvider');
const URLClassLoader = Java.type('java.net.URLClassLoader');
const Thread = Java.type('java.lang.Thread');
const URL = Java.type('java.net.URL');

// first accesses, each given the class name
const ACCESSES = {
  'Java.type': (n) => Java.type(n),
  'static field': (n) => Java.type(n).X,
  'static method': (n) => Java.type(n).twice(2),
  'constructor': (n) => new (Java.type(n))(),
};
// what the initializer throws, and the start of the first message's cause
const CAUSES = {
  runtime: ['new IllegalStateException("boom-" + NAME)', 'java.lang.ExceptionInInitializerError \\(caused by java.lang.IllegalStateException: boom-'],
  error: ['new AssertionError("err-" + NAME)', 'java.lang.AssertionError: err-'],
};

const dir = Files.createTempDirectory('strait-classinit', []);
const names = [];
const sources = [];
for (const a of Object.keys(ACCESSES)) {
  for (const c of Object.keys(CAUSES)) {
    const name = 'ClassInit_' + a.replace(/[^A-Za-z]/g, '') + '_' + c;
    names.push([a, c, name]);
    const src = 'public class ' + name + ' {\n' +
      '  static final String NAME = "' + name + '";\n' +
      '  public static int X = fail();\n' +
      '  public ' + name + '() {}\n' +
      '  public static int twice(int a) { return 2 * a; }\n' +
      '  static int fail() { if (NAME != null) throw ' + CAUSES[c][0] + '; return 0; }\n' +
      '}\n';
    const file = dir.resolve(name + '.java');
    Files.writeString(file, src, []);
    sources.push(file.toString());
  }
}
// a class whose field type is missing at run time: describing it fails
// with NoClassDefFoundError (Bridge.describe's getFields)
Files.writeString(dir.resolve('ClassInit_Gone.java'), 'public class ClassInit_Gone {}\n', []);
Files.writeString(dir.resolve('ClassInit_NeedsGone.java'),
  'public class ClassInit_NeedsGone { public static ClassInit_Gone g; public static int one() { return 1; } }\n', []);
sources.push(dir.resolve('ClassInit_Gone.java').toString(), dir.resolve('ClassInit_NeedsGone.java').toString());
const javac = ToolProvider.getSystemJavaCompiler();
const rc = javac.run(null, null, null, ['-d', dir.toString()].concat(sources));
Files.deleteIfExists(dir.resolve('ClassInit_Gone.class'));
const loader = new URLClassLoader([dir.toUri().toURL()]);
Thread.currentThread().setContextClassLoader(loader);

function esc(s) {
  return s.replace(/[.$]/g, (m) => '\\' + m);
}

describe('a throwing static initializer', () => {
  it('compiles its test classes', () => {
    expect(rc).toBe(0);
  });

  for (const [a, c, name] of names) {
    it(a + ' / ' + c + ': a JS error the first time and every later time', () => {
      const first = thrown(() => ACCESSES[a](name), Error);
      expect(first.message).toMatch(new RegExp('^cannot use Java class ' + esc(name) + ': ' + CAUSES[c][1]));
      for (let i = 0; i < 3; i++) {
        const again = thrown(() => ACCESSES[a](name), Error);
        expect(again.message).toMatch(new RegExp('^cannot use Java class ' + esc(name) +
          ': java.lang.NoClassDefFoundError: Could not initialize class ' + esc(name)));
      }
      // the bridge still works
      expect(new (Java.type('java.util.ArrayList'))([1, 2]).size()).toBe(2);
    });
  }

  it('a class that cannot be described (a missing field type) is a JS error naming it, every time', () => {
    for (let i = 0; i < 3; i++) {
      const e = thrown(() => Java.type('ClassInit_NeedsGone').one(), Error);
      expect(e.message).toMatch(/^cannot use Java class ClassInit_NeedsGone: java\.lang\.NoClassDefFoundError: ClassInit_Gone/);
    }
  });
});

describe('clean-up', () => {
  it('removes the compiled classes', () => {
    Thread.currentThread().setContextClassLoader(null);
    loader.close();
    for (const f of Files.list(dir).toArray()) Files.delete(f);
    Files.delete(dir);
    expect(Files.exists(dir, [])).toBe(false);
  });
});
