'use strict';
// Hunt: a property name the bridge looks up in Java is taken whole. A name
// with U+0000 or a lone surrogate names nothing Java has: before, the C
// string of 'String\0x' was 'String' (and JSC's UTF-8 stopped at a lone
// surrogate), so java.lang['String\0x'] was java.lang.String,
// file['name\0'] was file.getName() and so on: a wrong value, silently.
// Generated over every lookup surface and every way of spoiling a name
// that resolves.
const { describe, it, expect } = require('../runner');

const SPOIL = [
  ['a NUL at the end', (n) => n + '\0'],
  ['a NUL inside', (n) => n.slice(0, 1) + '\0' + n.slice(1)],
  ['a NUL and more', (n) => n + '\0x'],
  ['a lone high surrogate at the end', (n) => n + '\ud800'],
  ['a lone high surrogate inside', (n) => n.slice(0, 1) + '\ud800' + n.slice(1)],
  ['a lone low surrogate at the end', (n) => n + '\udc00'],
  ['a lone low surrogate first', (n) => '\udc00' + n],
];

importPackage(java.util);
const file = new java.io.File('/tmp/x');
const list = new java.util.ArrayList();
// [surface, a name that resolves there, read(name)]
const SURFACES = [
  ['a package child (class)', 'String', (n) => java.lang[n]],
  ['a package child (package)', 'lang', (n) => java[n]],
  ['Packages', 'java', (n) => Packages[n]],
  ['a JavaImporter', 'ArrayList', (n) => new JavaImporter(java.util)[n]],
  ['an importPackage global', 'LinkedList', (n) => globalThis[n]],
  ['a static method', 'valueOf', (n) => java.lang.String[n]],
  ['a static field', 'MAX_VALUE', (n) => java.lang.Integer[n]],
  ['a nested class', 'Entry', (n) => java.util.Map[n]],
  ['a static bean property', 'default', (n) => java.util.Locale[n]],
  ['an instance method', 'getName', (n) => file[n]],
  ['an instance bean property', 'name', (n) => file[n]],
  ['a static member through an instance', 'separator', (n) => file[n]],
  ['a signature', 'valueOf(int)', (n) => java.lang.String[n]],
  ['a constructor signature', 'new(String)', (n) => java.io.File[n]],
  ['an instance signature', 'add(Object)', (n) => list[n]],
];

describe('hunt: spoiled names find nothing', () => {
  for (const [where, name, read] of SURFACES) {
    it(where + ': ' + JSON.stringify(name) + ' resolves', () => {
      expect(read(name) !== undefined).toBe(true);
    });
    for (const [how, spoil] of SPOIL) {
      it(where + ': the name with ' + how + ' is undefined', () => {
        const n = spoil(name);
        let r, err;
        try { r = read(n); } catch (e) { err = e; }
        // an error naming the problem would do too; the real member never
        expect(err === undefined ? r : 'threw').toBe(err === undefined ? undefined : 'threw');
      });
    }
  }
  it('the real names still resolve afterwards (nothing spoiled was remembered for them)', () => {
    for (const [, name, read] of SURFACES) expect(read(name) !== undefined).toBe(true);
  });
});
