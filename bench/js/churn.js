// churn.js - wrapper churn (issue 3): create and drop 5,000,000 Java
// objects from JS (`new java.lang.Object()`, each wrapped, then unreachable),
// in one pass, and report the time per wrapper and the process's resident
// memory after 1 million and after 5 million wrappers and at its peak
// (VmRSS/VmHWM from /proc/self/status, read through java.nio). Bounded
// memory shows as rss_after_5m / rss_after_1m near 1. Rhino does the same
// through LiveConnect; bare JSC has no Java and skips.

var CHURN_ROWS = ['wrappers_5m', 'rss_after_1m', 'rss_after_5m', 'peak_rss', 'java_heap_after_5m'];

if (typeof java === 'undefined') {
  for (var r = 0; r < CHURN_ROWS.length; r++) bench.skip(CHURN_ROWS[r], 'no Java interop in this engine');
} else {
  (function () {
    var Files = java.nio.file.Files, Paths = java.nio.file.Paths, JObject = java.lang.Object;
    var runtime = java.lang.Runtime.getRuntime();
    function statusKB(key) {
      var lines = Files.readAllLines(Paths.get('/proc/self/status'));
      for (var i = 0; i < lines.size(); i++) {
        var line = String(lines.get(i));
        if (line.indexOf(key + ':') === 0) return Number(line.replace(/[^0-9]/g, ''));
      }
      return NaN;
    }
    function churn(n) {
      var s = 0;
      for (var i = 0; i < n; i++) {
        var o = new JObject();
        if (o) s++;
      }
      return s;
    }
    churn(200000);                           // warm-up (JIT, class metadata)
    var t0 = bench.now();
    var made = churn(1000000);
    var rss1 = statusKB('VmRSS');
    made += churn(4000000);
    var ms = bench.now() - t0;
    var rss5 = statusKB('VmRSS'), hwm = statusKB('VmHWM');
    java.lang.System.gc();
    var heap = (runtime.totalMemory() - runtime.freeMemory()) / 1024;
    if (made !== 5000000) throw new Error('made ' + made);
    var other = bench.engine === 'rhino' ? '' : 'churn.wrappers_5m.rhino';
    bench.row('wrappers_5m', ms * 1e6 / made, other,
              'new java.lang.Object() created and dropped, 5 million in one pass: ns per wrapper');
    bench.row('rss_after_1m', rss1, '', 'resident memory (VmRSS) after 1 million wrappers', 'KB');
    bench.row('rss_after_5m', rss5, 'churn.rss_after_1m.' + bench.engine,
              'resident memory (VmRSS) after 5 million wrappers (bounded: ratio near 1)', 'KB');
    bench.row('peak_rss', hwm, bench.engine === 'rhino' ? '' : 'churn.peak_rss.rhino',
              'peak resident memory (VmHWM) of the process', 'KB');
    bench.row('java_heap_after_5m', heap, '', 'Java heap in use after 5 million wrappers and System.gc()', 'KB');
  })();
}
