'use strict';
// The errors the Java bridge's helpers throw come from the runtime's own
// realm: the launcher readies the bridge's built-ins before the script runs
// (strait_java_prepare), a worker's before its script, so no function of
// another realm (one without the runtime's guards: unmetered WebAssembly,
// the engine's own typed-array sort) reaches a script through an error's
// constructor. A bridge attached to a runtime whose scripts already ran
// takes a fresh realm, which keeps no WebAssembly.
const { describe, it, expect } = require('../runner');

/* an error the bridge's Object.keys replacement throws */
function keysError() {
  const r = Proxy.revocable({}, {});
  r.revoke();
  try {
    Object.keys(r.proxy);
  } catch (e) {
    return e;
  }
  return null;
}

describe('the bridge and realms', () => {
  it('an error of the bridge is of the script\'s realm', () => {
    java.lang.System.nanoTime();   // the bridge is attached (lazily) after the script began
    const e = keysError();
    expect(e instanceof TypeError).toBe(true);
    expect(e.constructor).toBe(TypeError);
    expect(e.constructor.constructor).toBe(Function);
  });
  it('in a worker too', async () => {
    const { Worker } = require('worker_threads');
    const w = new Worker(`
      const { parentPort } = require('worker_threads');
      java.lang.System.nanoTime();
      const r = Proxy.revocable({}, {});
      r.revoke();
      let same = null;
      try { Object.keys(r.proxy); } catch (e) { same = e.constructor === TypeError && e.constructor.constructor === Function; }
      parentPort.postMessage(same);`, { eval: true });
    const same = await new Promise((resolve, reject) => { w.on('message', resolve); w.on('error', reject); });
    expect(same).toBe(true);
  });
});
