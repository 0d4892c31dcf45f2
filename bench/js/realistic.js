// realistic.js - interop loops as a user writes them (issue 12, "Speed"):
// the same source in strait and in Rhino (run with -opt 9 -version 200,
// for for...of); bare JSC has no Java and skips every row. The data comes
// from org.strait.bench.Realistic, so both engines loop over the same Java
// collections. Rows over a list are per element (a round walks the list,
// starting over at its end, so n need not be a multiple of its size);
// Java.from and JSON.stringify are per whole conversion.
// Rows made of one crossing per call also name their floor: the empty JSC
// callback plus the raw JNI call(s) one element costs at least (bench-floors,
// same run), so the table shows how far each row is from the floor and how
// far that floor itself is from Rhino's whole loop. list_toarray and
// hashmap_put and date_getters name a second floor with what the row needs
// besides its crossings: the put with its two boxes made by raw JNI
// (floor.jni_hashmap_put), and the parts of the new wrapper each date gets
// (a JS object with a weak handle, floor.jsc_object_weak, and a global ref,
// floor.jni_global_ref). list_toarray and
// list_get read in windows (many elements per crossing): list_toarray's
// floor is what each read still is, the Proxy every Java array is (a trap
// returning a constant over as many indexes); list_get's get is a JS
// function over a window, which no floor row measures.

var ROWS = ['list_get', 'list_iterator', 'list_toarray', 'for_of', 'date_getters', 'hashmap_put',
            'sb_append', 'java_from', 'json_stringify'];

if (typeof java === 'undefined') {
  for (var r = 0; r < ROWS.length; r++) bench.skip(ROWS[r], 'no Java interop in this engine');
} else {
  var R = org.strait.bench.Realistic;
  var CALL = 'floor.jsc_callback_empty+floor.jni_call_int';
  // what a new wrapper needs besides its crossing: a JS object with a weak
  // handle and a global ref (date_getters makes one per date)
  var WRAPPER = 'floor.jsc_object_weak+floor.jni_global_ref';
  var N = 1000000;
  var ints = R.ints(N);

  bench.run('list_get', function (n) {
    var s = 0, j = 0;
    for (var k = 0; k < n; k++) {
      s += ints.get(j);
      if (++j === N) j = 0;
    }
    return s;
  }, { desc: 'sum a 1M ArrayList<Integer> by list.get(i), per element' });

  bench.run('list_iterator', function (n) {
    var s = 0, it = ints.iterator();
    for (var k = 0; k < n; k++) {
      if (!it.hasNext()) it = ints.iterator();
      s += it.next();
    }
    return s;
  }, { desc: 'sum a 1M ArrayList<Integer> by iterator() hasNext()/next(), per element', floor: CALL + '+' + CALL });

  // the array and the position carry over between rounds: one toArray()
  // per 1M elements, as in a loop over the whole list
  var arr = null, aj = 0;
  bench.run('list_toarray', function (n) {
    var s = 0, a = arr, j = aj;
    for (var k = 0; k < n; k++) {
      if (a === null || j === N) { a = ints.toArray(); j = 0; }
      s += a[j++];
    }
    arr = a; aj = j;
    return s;
  }, { desc: 'sum a 1M ArrayList<Integer> by a[i] over list.toArray(), per element (toArray included)',
    floor: 'floor.js_proxy_index_read' });

  // for...of is ES2015 syntax: compiled here, so an engine without it
  // skips the row instead of failing the file
  var forOf = null;
  try {
    forOf = new Function('list', 'n',
      'var s = 0, k = 0;' +
      'while (k < n) { for (var x of list) { s += x; if (++k === n) break; } }' +
      'return s;');
  } catch (e) { forOf = null; }
  if (forOf) {
    bench.run('for_of', function (n) { return forOf(ints, n); },
              { desc: 'sum a 1M ArrayList<Integer> by for (x of list), per element' });
  } else {
    bench.skip('for_of', 'no for...of in this engine');
  }

  var D = 100000;
  var dates = R.dates(D);
  bench.run('date_getters', function (n) {
    var s = 0, j = 0;
    for (var k = 0; k < n; k++) {
      var d = dates.get(j);
      s += d.getYear() + d.getMonthValue() + d.getDayOfMonth();
      if (++j === D) j = 0;
    }
    return s;
  }, { desc: 'dates.get(i) then getYear(), getMonthValue(), getDayOfMonth() over 100k LocalDates, per date',
    floor: [CALL, CALL, CALL, CALL].join('+') + ',' + [CALL, CALL, CALL, CALL, WRAPPER].join('+') });

  var P = 200000;
  var map = new java.util.HashMap();
  bench.run('hashmap_put', function (n) {
    var j = 0;
    for (var k = 0; k < n; k++) {
      map.put(j, k);
      if (++j === P) { j = 0; map.clear(); }
    }
    return map.size();
  }, { desc: 'HashMap.put(i, v) with number keys, cleared every 200k puts, per put',
    floor: CALL + ',floor.jsc_callback_empty+floor.jni_hashmap_put' });

  var sb = new java.lang.StringBuilder();
  bench.run('sb_append', function (n) {
    var j = 0;
    for (var k = 0; k < n; k++) {
      sb.append('x');
      if (++j === P) { j = 0; sb.setLength(0); }
    }
    return sb.length();
  }, { desc: "StringBuilder.append('x'), reset every 200k appends, per append",
    floor: CALL + '+floor.jni_new_string_1' });

  // Java.from in strait (and Nashorn, GraalJS); Rhino has no Java.from, its
  // users write Array.from(list) (ES2015 mode)
  var toJs = (typeof Java !== 'undefined' && Java.from) ? function (l) { return Java.from(l); }
                                                        : function (l) { return Array.from(l); };
  bench.run('java_from', function (n) {
    var s = 0;
    for (var k = 0; k < n; k++) s += toJs(ints).length;
    return s;
  }, { desc: 'Java.from(list) of a 1M ArrayList<Integer> (Rhino: Array.from(list)), per conversion' });

  var records = R.records(100000);
  var small = R.records(2);
  var want = '[{"id":0,"name":"item0","active":true},{"id":1,"name":"item1","active":false}]';
  var got;
  try { got = JSON.stringify(small); } catch (e) { got = 'threw ' + e; }
  if (got !== want) {
    bench.skip('json_stringify', 'JSON.stringify of a List<Map> gives ' + got);
  } else {
    bench.run('json_stringify', function (n) {
      var s = 0;
      for (var k = 0; k < n; k++) s += JSON.stringify(records).length;
      return s;
    }, { desc: 'JSON.stringify of a 100k-element List<Map> (3 entries each), per conversion' });
  }
}
