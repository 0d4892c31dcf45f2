// messages.js - the worker message rows (issue 13): one payload moved from
// the main thread to a worker, by structured clone (postMessage(v)) and by
// the JSON baseline (postMessage(JSON.stringify(v)) + JSON.parse in the
// worker). Node API only, so the same file runs under `strait` and `node`
// (structured clone by V8's ValueSerializer):
//
//   strait bench/js/workers/messages.js strait [PAYLOAD...]
//   node   bench/js/workers/messages.js node   [PAYLOAD...]
//
// Payloads: payloads.js (all when none is named). For each payload P and
// way E (the engine, or ENGINE_json for the JSON baseline):
//   workers_latency.P.E  one-way latency, per message: from just before the
//                send (JSON.stringify included) until the worker's handler
//                has the value (JSON.parse included), timed by
//                process.hrtime() (a clock shared by the threads); one
//                message in flight, the worker idle when it arrives
//   workers_stream.P.E   a stream of n messages sent back to back, per
//                message: from the first send until the worker has the n-th
//                value (1e9 / this = messages per second)
// In strait, for the clone, also what the worker's messageStats() saw over
// the timed rounds of each:
//   workers_paths.P.latency_blocked, .stream_blocked  ns the receiving
//                thread spent making each message's value (snapshot path)
//   workers_paths.P.latency_direct, .stream_direct    % of messages the
//                sender made in the worker's heap (direct path)
// Descriptions are "column text // row text" (report.awk's pivot layout:
// one table row per payload, one column per way).
//
// Rounds as everywhere (bench/README.md): n is grown until a round lasts
// BENCH_JS_ROUND_MS (40), warm-up for BENCH_WORKERS_WARMUP_MS (200) and at
// least two rounds, then the median of BENCH_JS_ROUNDS (5) rounds.
'use strict';
const { Worker } = require('worker_threads');
const path = require('path');
const payloads = require('./payloads.js');

const ENGINE = process.argv[2] || 'strait';
const env = process.env;
const ROUND_MS = +env.BENCH_JS_ROUND_MS || 40;
const WARMUP_MS = +env.BENCH_WORKERS_WARMUP_MS || 200;
const ROUNDS = +env.BENCH_JS_ROUNDS || 5;
const STRAIT = ENGINE.indexOf('strait') === 0;

function nowMs() { const t = process.hrtime(); return t[0] * 1e3 + t[1] / 1e6; }
function clean(s) { return String(s).replace(/[\t\n]/g, ' '); }
function row(group, name, value, baselines, desc, unit) {
  console.log(['row', group, name, value.toFixed(3), baselines || '-', clean(desc),
               unit || 'ns'].join('\t'));
}
function skip(group, name, why) { console.log(['skip', group, name, clean(why)].join('\t')); }

const worker = new Worker(path.join(__dirname, 'messages_worker.js'));
let waiting = null;
worker.on('message', (m) => { const f = waiting; waiting = null; if (f) f(m); });
worker.on('error', (e) => { console.error('worker failed: ' + (e && e.stack || e)); process.exit(1); });
function next() { return new Promise((resolve) => { waiting = resolve; }); }
async function control(msg) { const p = next(); worker.postMessage(msg); return p; }

// n one-way latencies, one message in flight; resolves to their sum (ms)
function latency(v, json, n) {
  return new Promise((resolve) => {
    let i = 0, sum = 0, t0 = 0;
    function send() {
      t0 = nowMs();
      worker.postMessage(json ? JSON.stringify(v) : v);
    }
    waiting = function ack(t1) {
      sum += t1 - t0;
      if (++i === n) { resolve(sum); return; }
      waiting = ack;
      send();
    };
    send();
  });
}

// n messages back to back; resolves to the time until the n-th arrived (ms)
async function stream(v, json, n) {
  await control({ __ctl: 'stream', json, n });
  const done = next();
  const t0 = nowMs();
  for (let i = 0; i < n; i++) worker.postMessage(json ? JSON.stringify(v) : v);
  return (await done) - t0;
}

// median ms per op of run(n) (ms for n ops), calibrated as the C rows are
async function measure(run) {
  let n = 1, t = await run(n);
  while (t < ROUND_MS) {
    const f = t > 0 ? ROUND_MS / t * 1.2 : 10;
    n = Math.ceil(n * Math.max(2, Math.min(10, f)));
    t = await run(n);
  }
  for (let k = 0, w = 0; k < 2 || w < WARMUP_MS; k++) w += await run(n);
  const stats0 = await control({ __ctl: 'stats' });
  const v = [];
  for (let i = 0; i < ROUNDS; i++) v.push(await run(n) / n);
  const stats1 = await control({ __ctl: 'stats' });
  v.sort((a, b) => a - b);
  const k = v.length >> 1;
  const med = (v.length & 1) ? v[k] : (v[k - 1] + v[k]) / 2;
  let st = null;
  if (stats0 && stats1) {
    const msgs = (stats1.direct - stats0.direct) + (stats1.snapshot - stats0.snapshot);
    st = { msgs, direct: stats1.direct - stats0.direct,
           receiverMs: stats1.receiverMs - stats0.receiverMs };
  }
  return { ms: med, stats: st };
}

async function main() {
  const names = process.argv.length > 3 ? process.argv.slice(3) : payloads.names;
  for (const p of names) {
    const v = payloads.make(p);
    const what = payloads.describe(p);
    const paths = [];    // printed after the payload's other rows (table order)
    for (const kind of ['latency', 'stream']) {
      const g = 'workers_' + kind;
      for (const json of [false, true]) {
        const e = ENGINE + (json ? '_json' : '');
        const base = json ? '' : (STRAIT ? `${g}.${p}.${ENGINE}_json,${g}.${p}.node` : `${g}.${p}.${ENGINE}_json`);
        const how = json ? 'postMessage(JSON.stringify(v)) + JSON.parse in the worker' : 'postMessage(v)';
        const run = kind === 'latency'
          ? (n) => control({ __ctl: 'lat', json }).then(() => latency(v, json, n))
          : (n) => stream(v, json, n);
        const desc = kind === 'latency' ? `one-way latency main -> idle worker, ${how} [${e}]`
                                        : `per message of a stream main -> worker, ${how} [${e}]`;
        let r;
        try {
          r = await measure(run);
        } catch (err) {
          skip(g, `${p}.${e}`, 'threw ' + err);
          continue;
        }
        row(g, `${p}.${e}`, r.ms * 1e6, base, `${desc} // ${what}`);
        if (r.stats && !json && r.stats.msgs > 0) {
          paths.push(['workers_paths', `${p}.${kind}_blocked`, r.stats.receiverMs * 1e6 / r.stats.msgs, '',
              `${kind} rows of ${e}: ns the worker's thread spent making each value (messageStats() receiverMs / messages) // ${what}`]);
          paths.push(['workers_paths', `${p}.${kind}_direct`, 100 * r.stats.direct / r.stats.msgs, '',
              `${kind} rows of ${e}: % of messages the sender made in the idle worker's heap (direct path; the rest: snapshot path, made by the worker) // ${what}`, '%']);
        }
      }
    }
    for (const args of paths) row(...args);
  }
}

// "done" (not a row) tells scripts/bench.sh that every payload was measured:
// a process that ends early with status 0 gets a skip line there
main().then(() => { console.log('done'); return worker.terminate(); }, (err) => {
  console.error(err && err.stack || String(err));
  process.exit(1);
});
