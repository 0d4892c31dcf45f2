'use strict';
// The launcher starts the JVM lazily, after JavaScriptCore: both collectors
// must then run side by side without crashes, under each HotSpot collector.
// Each case runs tests/js/fixtures/gc_stress.js in a child strait process;
// JAVA_TOOL_OPTIONS picks the collector (a -J option would start the JVM
// eagerly, which is not the order under test).
const { describe, it, expect } = require('./runner');

const haveJava = typeof java !== 'undefined';
const itJ = haveJava ? it : it.skip;

function runStress(gcOption) {
  const pb = new java.lang.ProcessBuilder([process.argv[0], __dirname + '/fixtures/gc_stress.js', '2000']);
  pb.environment().put('JAVA_TOOL_OPTIONS', gcOption);
  pb.redirectErrorStream(true);
  const p = pb.start();
  const out = String(new java.lang.String(p.getInputStream().readAllBytes(), 'UTF-8'));
  return { code: p.waitFor(), out };
}

describe('JVM started after JavaScriptCore', () => {
  for (const gc of ['-XX:+UseG1GC', '-XX:+UseParallelGC', '-XX:+UseSerialGC']) {
    itJ('survives allocation and GC on both heaps with ' + gc, () => {
      const r = runStress(gc);
      expect(r.out).toMatch(/^ok true 600$/m);
      expect(r.code).toBe(0);
    }, 60000);
  }
});
