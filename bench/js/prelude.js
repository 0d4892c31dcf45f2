// prelude.js - the JS side of the benchmark harness. scripts/bench.sh builds
// each engine's copy of a workload as: a header defining BENCH_ENGINE
// ("strait", "jsc" or "rhino"), BENCH_GROUP (the workload's file name),
// BENCH_ROUND_MS and BENCH_ROUNDS; then this file; then the workload. The
// same text runs in every engine, so it uses only ES5 and print/console.log.
//
// bench.run(name, fn, opts): fn(n) performs n operations and returns a value
// (kept, so the work cannot be optimized away). The harness grows n until a
// round lasts BENCH_ROUND_MS, runs two warm-up rounds, then BENCH_ROUNDS
// rounds, and prints the median ns per operation as the row
// BENCH_GROUP.name.BENCH_ENGINE. Rows of other engines are compared with the
// Rhino row of the same name (and strait's with the bare-JSC row too);
// opts.floor adds baselines such as "floor.jsc_callback_empty+floor.jni_call_int";
// opts.desc describes one operation.
// bench.skip(name, reason) reports a row this engine cannot run (for
// example a workload that needs Java interop when the engine has none).
var bench = (function () {
  var out = (typeof console !== 'undefined' && console.log)
    ? function (s) { console.log(s); } : function (s) { print(s); };
  var now = (typeof performance !== 'undefined' && performance.now)
    ? function () { return performance.now(); } : function () { return Date.now(); };
  var sink = 0;

  function clean(s) { return String(s).replace(/[\t\n]/g, ' '); }

  function timeRound(fn, n) {
    var t0 = now();
    var r = fn(n);
    var t = now() - t0;
    if (typeof r === 'number') sink += r; else if (r) sink += 1;
    return t;
  }

  function measure(fn) {
    var target = BENCH_ROUND_MS, n = 1, t = timeRound(fn, n);
    while (t < target) {
      var f = t > 0 ? target / t * 1.2 : 10;
      n = Math.ceil(n * Math.max(2, Math.min(10, f)));
      t = timeRound(fn, n);
    }
    timeRound(fn, n);
    timeRound(fn, n);
    var v = [];
    for (var i = 0; i < BENCH_ROUNDS; i++) v.push(timeRound(fn, n) * 1e6 / n);
    v.sort(function (a, b) { return a - b; });
    var k = v.length >> 1;
    return (v.length & 1) ? v[k] : (v[k - 1] + v[k]) / 2;
  }

  function run(name, fn, opts) {
    opts = opts || {};
    var base = [];
    if (BENCH_ENGINE !== 'rhino') base.push(BENCH_GROUP + '.' + name + '.rhino');
    if (BENCH_ENGINE === 'strait') base.push(BENCH_GROUP + '.' + name + '.jsc');
    if (opts.floor) base.push(opts.floor);
    var ns;
    try {
      ns = measure(fn);
    } catch (e) {
      skip(name, 'threw ' + e);
      return;
    }
    out(['row', BENCH_GROUP, name + '.' + BENCH_ENGINE, ns.toFixed(3),
         base.length ? base.join(',') : '-',
         clean((opts.desc || name) + ' [' + BENCH_ENGINE + ']')].join('\t'));
  }

  function skip(name, reason) {
    out(['skip', BENCH_GROUP, name + '.' + BENCH_ENGINE, clean(reason)].join('\t'));
  }

  return { run: run, skip: skip, engine: BENCH_ENGINE, sink: function () { return sink; } };
})();
