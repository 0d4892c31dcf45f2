// java.js - JS -> Java calls through the bridge (issue 3), in strait and in
// Rhino (LiveConnect); bare JSC has no Java and skips every row. Each call
// row is compared with its floor: an empty JSC callback plus the matching
// raw JNI call from C with cached IDs (bench-floors, same run).

var ROWS = ['list_size', 'math_max', 'sb_append', 'objects3_existing', 'objects3_new', 'new_object',
            'static_field', 'static_final', 'array_read', 'array_write', 'array_length', 'js_length', 'js_property',
            'first_access_static_fields', 'first_access_methods'];

if (typeof java === 'undefined') {
  for (var r = 0; r < ROWS.length; r++) bench.skip(ROWS[r], 'no Java interop in this engine');
} else {
  var CB = 'floor.jsc_callback_empty';
  var list = new java.util.ArrayList();
  list.add('x');
  bench.run('list_size', function (n) {
    var s = 0;
    for (var i = 0; i < n; i++) s += list.size();
    return s;
  }, { desc: 'list.size()', floor: CB + '+floor.jni_call_int' });

  var JMath = java.lang.Math;
  bench.run('math_max', function (n) {
    var s = 0;
    for (var i = 0; i < n; i++) s += JMath.max(1.5, i + 0.5);
    return s;
  }, { desc: 'java.lang.Math.max(double, double)', floor: CB + '+floor.jni_call_static_double_2' });

  var sb = new java.lang.StringBuilder();
  bench.run('sb_append', function (n) {
    for (var i = 0; i < n; i++) {
      sb.append('x');
      if ((i & 1023) === 0) sb.setLength(0);
    }
    return sb.length();
  }, { desc: "sb.append('x'): a JS string becomes a Java String",
       floor: CB + '+floor.jni_new_string_1+floor.jni_call_int' });

  var T = org.strait.bench.BridgeTarget;
  var o1 = new java.lang.Object(), o2 = new java.lang.Object(), o3 = new java.lang.Object();
  bench.run('objects3_existing', function (n) {
    var s = 0;
    for (var i = 0; i < n; i++) s += T.three(o1, o2, o3);
    return s;
  }, { desc: 'static call passing three existing Java objects', floor: CB + '+floor.jni_call_static_int' });

  bench.run('objects3_new', function (n) {
    var s = 0;
    for (var i = 0; i < n; i++) s += T.three('a', 'b', 'c');
    return s;
  }, { desc: 'static call passing three JS strings that become new Java Strings',
       floor: CB + '+floor.jni_call_static_int+floor.jni_new_string_1+floor.jni_new_string_1+floor.jni_new_string_1' });

  var JObject = java.lang.Object;
  bench.run('new_object', function (n) {
    var o;
    for (var i = 0; i < n; i++) o = new JObject();
    return o ? 1 : 0;
  }, { desc: 'new java.lang.Object() (wrapper created, later released)',
       floor: CB + '+floor.jni_new_object,' + CB + '+floor.jni_new_object+floor.jsc_object_weak+floor.jni_global_ref' });

  bench.run('static_field', function (n) {
    var s = 0;
    for (var i = 0; i < n; i++) s += T.counter;
    return s;
  }, { desc: 'read of a non-final static int field', floor: CB + '+floor.jni_get_static_field' });

  var JInteger = java.lang.Integer;
  var warm = JInteger.MAX_VALUE;
  bench.run('static_final', function (n) {
    var s = 0;
    for (var i = 0; i < n; i++) s += JInteger.MAX_VALUE;
    return s;
  }, { desc: 'read of a static final after the first (Integer.MAX_VALUE)',
        floor: 'java.js_property.strait,floor.js_property_read' });

  // the same loop over a plain JS object's property, in the same process:
  // the baseline static_final is meant to match (floor.js_property_read
  // reads a global, which the JIT hoists out of its loop)
  var plainObj = { MAX_VALUE: 2147483647 };
  bench.run('js_property', function (n) {
    var s = 0;
    for (var i = 0; i < n; i++) s += plainObj.MAX_VALUE;
    return s;
  }, { desc: 'plain JS object property read (same-process baseline of static_final)', floor: 'floor.js_property_read' });

  var arr = java.lang.reflect.Array.newInstance(java.lang.Integer.TYPE, 8);
  bench.run('array_read', function (n) {
    var s = 0;
    for (var i = 0; i < n; i++) s += arr[i & 7];
    return s;
  }, { desc: 'int[] element read a[i]', floor: CB });

  bench.run('array_write', function (n) {
    for (var i = 0; i < n; i++) arr[i & 7] = i;
    return arr[3];
  }, { desc: 'int[] element write a[i] = v', floor: CB + ',' + CB + '+floor.js_proxy_index_write' });

  bench.run('array_length', function (n) {
    var s = 0;
    for (var i = 0; i < n; i++) s += arr.length;
    return s;
  }, { desc: 'Java array length', floor: 'java.js_length.strait,floor.js_property_read' });

  // the same loop over a plain JS object's length, in the same process: the
  // baseline array_length is meant to match
  var plainArr = { length: 8 };
  bench.run('js_length', function (n) {
    var s = 0;
    for (var i = 0; i < n; i++) s += plainArr.length;
    return s;
  }, { desc: 'plain JS object .length read (same-process baseline of array_length)', floor: 'floor.js_property_read' });

  // First access: once per process, so one measurement per pass, reported
  // per member (the harness takes the median over passes).
  var firstAccess = function (name, className, touch, count) {
    var now = (typeof performance !== 'undefined' && performance.now)
      ? function () { return performance.now(); } : function () { return Date.now(); };
    var t0 = now();
    touch();
    var t = now() - t0;
    var members = count();
    var base = BENCH_ENGINE !== 'rhino' ? BENCH_GROUP + '.' + name + '.rhino' : '-';
    var out = (typeof console !== 'undefined' && console.log) ? function (s) { console.log(s); } : print;
    out(['row', BENCH_GROUP, name + '.' + BENCH_ENGINE, (t * 1e6 / members).toFixed(3), base,
         'first access of ' + className + ', ns per member (' + members + ' members) [' + BENCH_ENGINE + ']'].join('\t'));
  };
  firstAccess('first_access_static_fields', 'java.awt.event.KeyEvent', function () {
    return java.awt.event.KeyEvent.VK_A;
  }, function () {
    var c = java.lang.Class.forName('java.awt.event.KeyEvent');
    return c.getFields().length + c.getMethods().length;
  });
  firstAccess('first_access_methods', 'javax.swing.JComponent', function () {
    return javax.swing.JComponent.prototype ? 1 : javax.swing.JComponent.WHEN_FOCUSED;
  }, function () {
    var c = java.lang.Class.forName('javax.swing.JComponent');
    return c.getFields().length + c.getMethods().length;
  });
}
