'use strict';
// Issue 12 point 7: a caught Java exception is instanceof its Java class
// (and superclasses) while it stays a JS Error with javaException, message
// and a JS stack; Java exceptions keep their class through JS
// implementations of Java interfaces.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

const FNFE = java.io.FileNotFoundException;

function openMissing() {
  return new java.io.FileInputStream('/strait-no-such-dir/missing.txt');
}

describe('a caught Java exception', () => {
  it('is instanceof its Java class and every superclass, and still an Error', () => {
    let caught;
    try {
      openMissing();
    } catch (e) {
      caught = e;
      expect(e instanceof FNFE).toBe(true);
      expect(e instanceof java.io.IOException).toBe(true);
      expect(e instanceof java.lang.Exception).toBe(true);
      expect(e instanceof java.lang.Throwable).toBe(true);
      expect(e instanceof java.lang.Object).toBe(true);
      expect(e instanceof Error).toBe(true);
      expect(e instanceof java.lang.RuntimeException).toBe(false);
      expect(e instanceof java.util.ArrayList).toBe(false);
    }
    expect(caught === undefined).toBe(false);
  });

  it('carries javaException, the message and a JS stack', () => {
    const e = thrown(openMissing, FNFE, /^java\.io\.FileNotFoundException: \/strait-no-such-dir\/missing\.txt/);
    expect(e.javaException instanceof FNFE).toBe(true);
    expect(Java.isJavaObject(e.javaException)).toBe(true);
    expect(e.javaException.getMessage()).toMatch(/missing\.txt/);
    expect(e.stack).toMatch(/openMissing/);
    expect(e.stack.indexOf('Java stack:') >= 0).toBe(true);
  });

  it('is instanceof for exceptions of static methods', () => {
    const e = thrown(() => java.lang.Integer.parseInt('zz'), java.lang.NumberFormatException, /For input string/);
    expect(e instanceof java.lang.IllegalArgumentException).toBe(true);
    expect(e instanceof java.lang.RuntimeException).toBe(true);
    expect(e instanceof java.io.IOException).toBe(false);
  });

  it('is not confused with JS errors and plain objects', () => {
    expect(new Error('x') instanceof java.lang.Throwable).toBe(false);
    expect(new TypeError('x') instanceof java.lang.Exception).toBe(false);
    // the bridge's own TypeError (a bad argument) carries no Java exception
    const bad = thrown(() => java.lang.Math.abs('x'), TypeError);
    expect(bad instanceof java.lang.Throwable).toBe(false);
    // only an Error carries a Java exception this way
    expect({ javaException: new java.io.IOException('p') } instanceof java.io.IOException).toBe(false);
    const withOther = new Error('x');
    withOther.javaException = new java.lang.Object();
    expect(withOther instanceof java.lang.Object).toBe(false);
  });

  it('follows a javaException a script gives its own Error', () => {
    const e = new Error('wrapped');
    e.javaException = new java.io.EOFException('eof');
    expect(e instanceof java.io.IOException).toBe(true);
    expect(e instanceof FNFE).toBe(false);
  });
});

describe('Java exceptions through JS implementations of Java interfaces', () => {
  const Supplier = java.util.function.Supplier;
  const Callable = java.util.concurrent.Callable;
  const empty = () => java.util.Optional.empty();

  it('keep their class when a Java call inside the implementation threw', () => {
    const s = new Supplier({ get() { return java.lang.Integer.parseInt('nope'); } });
    const e = thrown(() => empty().orElseGet(s), java.lang.NumberFormatException, /nope/);
    expect(e instanceof Error).toBe(true);
  });

  it('reach Java as themselves when the implementation throws one', () => {
    const ise = new java.lang.IllegalStateException('direct');
    const s = new Supplier({ get() { throw ise; } });
    const e = thrown(() => empty().orElseGet(s), java.lang.IllegalStateException, /^java\.lang\.IllegalStateException: direct$/);
    expect(e.javaException).toBe(ise);
    // Java code between sees the Throwable itself, not a JsException
    const kept = new java.lang.IllegalStateException('kept');
    const task = new java.util.concurrent.FutureTask(new java.util.concurrent.Callable({ call() { throw kept; } }));
    task.run();   // FutureTask keeps what call() threw
    const ee = thrown(() => task.get(), java.util.concurrent.ExecutionException);
    expect(ee.javaException.getCause()).toBe(kept);
  });

  it('keep a checked exception through a method that declares it', () => {
    const c = new Callable({ call() { return openMissing(); } });
    thrown(() => c.call(), FNFE, /missing\.txt/);
    const c2 = new Callable({ call() { throw new java.io.EOFException('e'); } });
    const e = thrown(() => c2.call(), java.io.EOFException, /^java\.io\.EOFException: e$/);
    expect(e instanceof java.io.IOException).toBe(true);
  });

  it('arrive as UndeclaredThrowableException through a method that does not declare them (Java\'s rule)', () => {
    const s = new Supplier({ get() { return openMissing(); } });
    const e = thrown(() => empty().orElseGet(s), java.lang.reflect.UndeclaredThrowableException);
    expect(e instanceof FNFE).toBe(false);
    expect(e.javaException.getCause() instanceof FNFE).toBe(true);
  });

  it('leave JS errors of the implementation as they were', () => {
    const err = new RangeError('js side');
    const s = new Supplier({ get() { throw err; } });
    const e = thrown(() => empty().orElseGet(s), RangeError, /^js side$/);
    expect(e).toBe(err);
    expect(e instanceof java.lang.Throwable).toBe(false);
  });
});
