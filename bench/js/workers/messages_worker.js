// messages_worker.js - the receiving end of messages.js (see there). Control
// messages are {__ctl: ...} objects; every other message is a payload.
//   {__ctl: 'lat', json}     one ack per payload: the time it was received
//   {__ctl: 'stream', json, n}  count payloads, ack the n-th with its time
//   {__ctl: 'stats'}         reply what messageStats() (strait) counted for
//                            payloads only, or null (Node)
// "Received" is when the value is usable in this thread: in the message
// handler, after JSON.parse for the JSON baseline. messageStats() is read
// after that time is taken: at each control message and at each payload
// in 'lat' mode, at the n-th payload in 'stream' mode (nothing else is sent
// during a stream), so the sums below leave the control messages out.
'use strict';
const wt = require('worker_threads');
const port = wt.parentPort;

function nowMs() { const t = process.hrtime(); return t[0] * 1e3 + t[1] / 1e6; }

let mode = 'lat', json = false, want = 0, count = 0, sink = 0;
const stats = typeof wt.messageStats === 'function' ? wt.messageStats : null;
const sum = { direct: 0, snapshot: 0, senderMs: 0, receiverMs: 0 };
let last = null;
function account(payloads) {
  if (!stats) return;
  const s = stats();
  if (payloads && last) {
    sum.direct += s.direct - last.direct;
    sum.snapshot += s.snapshot - last.snapshot;
    sum.senderMs += s.senderMs - last.senderMs;
    sum.receiverMs += s.receiverMs - last.receiverMs;
  }
  last = s;
}

port.on('message', (m) => {
  if (json && typeof m === 'string') m = JSON.parse(m);
  const t = nowMs();
  if (m !== null && typeof m === 'object' && m.__ctl !== undefined) {
    account(false);
    if (m.__ctl === 'stats') {
      port.postMessage(stats ? { direct: sum.direct, snapshot: sum.snapshot, senderMs: sum.senderMs,
                                 receiverMs: sum.receiverMs } : null);
      return;
    }
    mode = m.__ctl;
    json = !!m.json;
    want = m.n | 0;
    count = 0;
    port.postMessage(0);
    return;
  }
  // keep something of every payload, so nothing is optimized away
  sink += m.value !== undefined ? m.value : m.total;
  if (mode === 'lat') {
    account(true);
    port.postMessage(t);
  } else if (++count === want) {
    count = 0;
    account(true);
    port.postMessage(t);
  }
});
