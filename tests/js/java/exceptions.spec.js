'use strict';
// Point 7: Java exceptions as JS errors.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

describe('exceptions', () => {
  it('surface as an Error naming the Java class and message', () => {
    const list = new java.util.ArrayList();
    const e = thrown(() => list.get(5), Error, /^java\.lang\.IndexOutOfBoundsException: Index 5 out of bounds for length 0$/);
    expect(e.javaException instanceof java.lang.IndexOutOfBoundsException).toBe(true);
    expect(e.javaException instanceof java.lang.RuntimeException).toBe(true);
    expect(e.javaException.getMessage()).toBe('Index 5 out of bounds for length 0');
  });

  it('carry the Java stack trace in the stack', () => {
    const e = thrown(() => java.lang.Integer.parseInt('zz'), Error, /NumberFormatException/);
    expect(e.stack.indexOf('Java stack:') >= 0).toBe(true);
    expect(e.stack.indexOf('java.lang.Integer.parseInt') >= 0).toBe(true);
  });

  it('handle exceptions thrown by constructors and without message', () => {
    const e = thrown(() => new java.util.ArrayList(-1), Error, /IllegalArgumentException/);
    expect(e.javaException instanceof java.lang.IllegalArgumentException).toBe(true);
    const it2 = new java.util.ArrayList().iterator();
    thrown(() => it2.next(), Error, /^java\.util\.NoSuchElementException$/);
  });

  it('leave the runtime working after a caught exception', () => {
    for (let i = 0; i < 100; i++) {
      try {
        java.lang.Integer.parseInt('x' + i);
      } catch (e) {
        // expected
      }
    }
    expect(java.lang.Integer.parseInt('12')).toBe(12);
    const st = new java.lang.IllegalStateException('boom');
    expect(st.getMessage()).toBe('boom');
  });
});
