// scale.js - the unit of work of the scaling rows (scale.sh): fib(27),
// then sorting 200k numbers (a fixed LCG sequence, numeric comparator).
//
//   strait scale.js task         run one unit here; print "span START END"
//   strait scale.js workers N    run one unit in each of N workers at once;
//                                print "span START END": the first unit's
//                                start and the last one's end
//
// Times are process.hrtime() in ms, a clock shared by the threads and the
// processes of the machine (CLOCK_MONOTONIC), so scale.sh compares this
// span with the one of N `scale.js task` processes started together.
'use strict';
const wt = require('worker_threads');

function nowMs() { const t = process.hrtime(); return t[0] * 1e3 + t[1] / 1e6; }
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

function unit() {
  const start = nowMs();
  const f = fib(27);
  const a = new Array(200000);
  let s = 12345;
  for (let i = 0; i < a.length; i++) { s = s * 16807 % 2147483647; a[i] = s / 2147483647; }
  a.sort((x, y) => x - y);
  const end = nowMs();
  if (f !== 196418 || !(a[0] <= a[1])) throw new Error('wrong result');
  return { start, end };
}

if (!wt.isMainThread) {
  wt.parentPort.postMessage(unit());
} else if (process.argv[2] === 'workers') {
  const n = parseInt(process.argv[3], 10);
  if (!(n > 0)) throw new RangeError('scale.js workers N: N must be a positive integer');
  let start = Infinity, end = -Infinity, left = n;
  for (let i = 0; i < n; i++) {
    const w = new wt.Worker(__filename);
    w.on('error', (e) => { console.error('worker failed: ' + (e && e.stack || e)); process.exit(1); });
    w.on('message', (r) => {
      start = Math.min(start, r.start);
      end = Math.max(end, r.end);
      if (--left === 0) console.log('span ' + start.toFixed(3) + ' ' + end.toFixed(3));
    });
  }
} else if (process.argv[2] === 'task') {
  const r = unit();
  console.log('span ' + r.start.toFixed(3) + ' ' + r.end.toFixed(3));
} else {
  throw new TypeError('usage: scale.js task | workers N');
}
