'use strict';
// viaChannel(v, transfer): v through a MessageChannel (the C path of a
// clone, clone.c): a promise of the data that arrives, rejected with what
// postMessage threw or on a messageerror. For the clone specs.
function viaChannel(v, transfer) {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve, reject) => {
    port2.onmessage = (e) => { port1.close(); port2.close(); resolve(e.data); };
    port2.onmessageerror = () => { port1.close(); port2.close(); reject(new Error('messageerror')); };
    try { port1.postMessage(v, transfer); } catch (e) { port1.close(); port2.close(); reject(e); }
  });
}

module.exports = { viaChannel };
