// compute.js - pure-JS workloads: no crossing, the engine alone.

function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

bench.run('fib27', function (n) {
  var s = 0;
  for (var i = 0; i < n; i++) s += fib(27);
  return s;
}, { desc: 'recursive fib(27)' });

// 200,000 deterministic pseudo-random doubles in [0, 1) (xorshift32).
var SORT_N = 200000;
var sortSource = (function () {
  var a = new Array(SORT_N), x = 2463534242 | 0;
  for (var i = 0; i < SORT_N; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    a[i] = (x >>> 0) / 4294967296;
  }
  return a;
})();

function byValue(a, b) { return a - b; }

(function check() {
  var a = sortSource.slice().sort(byValue);
  for (var i = 1; i < a.length; i++) if (a[i - 1] > a[i]) throw new Error('sort check failed at ' + i);
})();

bench.run('sort200k', function (n) {
  var s = 0;
  for (var i = 0; i < n; i++) {
    var a = sortSource.slice();
    a.sort(byValue);
    s += a[100];
  }
  return s;
}, { desc: 'copy and sort 200,000 doubles with a comparator' });
