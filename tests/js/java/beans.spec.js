'use strict';
// Issue 12 point 3: bean properties. obj.name calls getName() (isName() for
// a boolean), obj.name = v calls setName(v) with the usual argument
// conversion, also for static getters and setters on the class; a public
// field or method of the same name wins; an unknown or read-only property
// assigned is a TypeError naming the class and the property.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

describe('bean properties', () => {
  it('read through getX and isX', () => {
    const f = new java.io.File('/tmp/strait-beans/child.txt');
    expect(f.name).toBe('child.txt');
    expect(f.path).toBe('/tmp/strait-beans/child.txt');
    expect(f.parent).toBe('/tmp/strait-beans');
    expect(f.absolute).toBe(true);
    expect(new java.io.File('rel').absolute).toBe(false);
    expect(new java.util.ArrayList().empty).toBe(true);
    expect(new java.util.BitSet().empty).toBe(true);
    expect(f.class.getName()).toBe('java.io.File');
  });

  it('answer `in` and are defined on the prototype once resolved (inline-cached reads)', () => {
    const f = new java.io.File('/x');
    expect('name' in f).toBe(true);
    expect('nope' in f).toBe(false);
    expect(f.name).toBe('x');
    const d = Object.getOwnPropertyDescriptor(java.io.File.prototype, 'name');
    expect(typeof d.get).toBe('function');
    expect(d.enumerable).toBe(false);
    // a getter called on something that is not a File names the receiver problem
    thrown(() => d.get.call({}), TypeError, /receiver is not a Java object/);
    // bean properties are not own keys and not listed by Object.keys
    expect(Object.keys(f).indexOf('name')).toBe(-1);
  });

  it('write through setX with the usual conversion and its errors', () => {
    const d = new java.util.Date(0);
    expect(d.time).toBe(0);
    d.time = 5000;
    expect(d.getTime()).toBe(5000);
    thrown(() => { d.time = 'soon'; }, TypeError, /java\.util\.Date\.setTime\(long\) argument 1: cannot convert string to long/);
    expect(d.time).toBe(5000);
    const t = new java.lang.Thread();
    t.name = 'worker-1';
    expect(t.getName()).toBe('worker-1');
    expect(t.daemon).toBe(false);
    t.daemon = true;
    expect(t.isDaemon()).toBe(true);
    // a Java exception from the setter arrives as a JS error carrying it
    const e = thrown(() => { t.priority = 99; }, Error);
    expect(e.javaException.getClass().getName()).toBe('java.lang.IllegalArgumentException');
    expect(t.priority).toBe(5);
  });

  it('refuse assigning a read-only bean property or an unknown property, naming class and property', () => {
    const f = new java.io.File('/tmp');
    thrown(() => { f.name = 'x'; }, TypeError,
           /cannot assign to read-only bean property java\.io\.File\.name \(it has getName\(\) and no setName\)/);
    expect(f.name).toBe('tmp');
    thrown(() => { f.colour = 'red'; }, TypeError,
           /cannot set property colour of java\.io\.File: it has no public field colour and no setter setColour/);
    expect(f.colour).toBe(undefined);
  });

  it('let a public field or method of the same name win', () => {
    const p = new java.awt.Point(1, 2);
    // the int field x, not getX() (a double)
    p.x = 4;
    expect(p.x).toBe(4);
    thrown(() => { p.x = 'no'; }, TypeError, /java\.awt\.Point\.x/);
    // length() of a File is a method, not a bean
    expect(typeof new java.io.File('/tmp').length).toBe('function');
    // a Map's names are its keys, not bean properties (isEmpty stays a method)
    const m = new java.util.HashMap();
    expect(m.empty).toBe(undefined);
    m.put('empty', 'yes');
    expect(m.empty).toBe('yes');
  });

  it('work for static getters and setters on the class', () => {
    const Locale = java.util.Locale;
    const before = Locale.getDefault();
    expect(Locale.default).toBe(before);
    expect('default' in Locale).toBe(true);
    try {
      Locale.default = Locale.GERMANY;
      expect(Locale.getDefault()).toBe(Locale.GERMANY);
      thrown(() => { Locale.default = 'de'; }, TypeError, /java\.util\.Locale\.setDefault/);
    } finally {
      Locale.setDefault(before);
    }
    expect(java.lang.Runtime.runtime).toBe(java.lang.Runtime.getRuntime());
    thrown(() => { java.lang.Runtime.runtime = null; }, TypeError,
           /cannot assign to read-only bean property java\.lang\.Runtime\.runtime \(it has getRuntime\(\) and no setRuntime\)/);
  });

  it('map names to accessors as java.beans does (URL -> getURL), not other spellings', () => {
    const u = new java.net.URI('http://example.com/a');
    expect(u.host).toBe('example.com');
    expect(u.Host).toBe(undefined);            // getHost is `host`, not `Host`
    const url = u.toURL();
    expect(url.host).toBe('example.com');
    const conn = new java.io.File('/tmp').toURI().toURL().openConnection();
    expect(conn.URL.getProtocol()).toBe('file');   // getURL()
    expect(new java.io.File('/').Name).toBe(undefined);
  });
});
