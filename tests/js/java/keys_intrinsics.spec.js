'use strict';
// The JNI layer's intrinsics in the launcher's runtime, which it first sees
// after a script ran: Object.keys and the ArrayBuffer getters are taken
// from a fresh realm, so what this script replaces before the first use of
// Java changes nothing. JsObject.keys() and JsValue.asByteBuffer() are
// reached through a small Java class compiled here (javax.tools) that gets
// its handles from JS implementations of Supplier.
const saved = { keys: Object.keys };
// (a replacement that still works, so the runner and the bridge keep working)
Object.keys = (o) => saved.keys(o).concat(['FAKE']);
Object.defineProperty(ArrayBuffer.prototype, 'resizable', { get() { return false; }, configurable: true });
Object.defineProperty(ArrayBuffer.prototype, 'detached', { get() { return false; }, configurable: true });

const { describe, it, expect } = require('../runner');

const Files = Java.type('java.nio.file.Files');
const ToolProvider = Java.type('javax.tools.ToolProvider');
const URLClassLoader = Java.type('java.net.URLClassLoader');
const Thread = Java.type('java.lang.Thread');
const System = Java.type('java.lang.System');

const dir = Files.createTempDirectory('strait-intrinsics', []);
const src = dir.resolve('KeysProbe.java');
Files.writeString(src,
  'import org.strait.*;\n' +
  'import java.util.function.Supplier;\n' +
  'public class KeysProbe {\n' +
  '  public static String keys(Supplier<Object> s) { Object v = s.get();\n' +
  '    return String.join("|", v instanceof JsArray ? ((JsArray) v).keys() : ((JsObject) v).keys()); }\n' +
  '  public static String buffer(Supplier<Object> s) {\n' +
  '    try { return "capacity " + ((JsValue) s.get()).asByteBuffer().capacity(); }\n' +
  '    catch (IllegalArgumentException e) { return e.getMessage(); }\n' +
  '  }\n' +
  '}\n', []);
const rc = ToolProvider.getSystemJavaCompiler().run(null, null, null,
  ['-cp', System.getProperty('java.class.path'), '-d', dir.toString(), src.toString()]);
const loader = new URLClassLoader([dir.toUri().toURL()]);
Thread.currentThread().setContextClassLoader(loader);

describe('intrinsics of the launcher runtime', () => {
  it('compiles its probe', () => {
    expect(rc).toBe(0);
  });

  const cases = [
    [() => ({ a: 1, b: 2 }), 'a|b'],
    [() => ({ 2: 'x', 1: 'y', z: 0 }), '1|2|z'],
    [() => Object.create({ inherited: 1 }, { own: { value: 1, enumerable: true } }), 'own'],
    [() => ['p', 'q'], '0|1'],
  ];
  for (const [make, want] of cases) {
    it('JsObject.keys() ignores the replaced Object.keys: ' + want, () => {
      expect(Java.type('KeysProbe').keys(make)).toBe(want);
    });
  }

  it('asByteBuffer() refuses a resizable ArrayBuffer although the getters lie', () => {
    const probe = Java.type('KeysProbe');
    expect(probe.buffer(() => new ArrayBuffer(8, { maxByteLength: 64 }))).toMatch(/resizable/);
    expect(probe.buffer(() => new Uint8Array(new ArrayBuffer(8, { maxByteLength: 64 })))).toMatch(/resizable/);
    const d = new ArrayBuffer(8);
    d.transfer();
    expect(probe.buffer(() => d)).toMatch(/detached/);
    expect(probe.buffer(() => new ArrayBuffer(8))).toBe('capacity 8');
  });

  it('cleans up', () => {
    Object.keys = saved.keys;
    Thread.currentThread().setContextClassLoader(null);
    loader.close();
    for (const f of Files.list(dir).toArray()) Files.delete(f);
    Files.delete(dir);
    expect(Files.exists(dir, [])).toBe(false);
  });
});
