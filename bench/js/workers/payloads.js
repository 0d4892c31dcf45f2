// payloads.js - the messages of the worker and structured-clone rows (the
// Dart VM isolate benchmark's set): JSON documents of about 400 B, 5 KB,
// 50 KB, 500 KB and 5 MB (API-like data: an envelope holding an array of
// records with strings, numbers, booleans, arrays and nested objects) and
// binary trees {left, right, value} of depth 2, 4, ..., 14. Deterministic
// (a fixed LCG), so every engine and every run moves the same data.
//
// Used as a CommonJS module by messages.js (strait and Node) and evaluated
// as a script by bench/c/clone_rows.c, with `module` defined; ES5 only,
// iterative.
(function (exports) {
  'use strict';

  // Park-Miller LCG: same sequence in every engine (exact in doubles)
  function rng(seed) {
    var s = seed % 2147483647;
    if (s <= 0) s += 2147483646;
    return function () { s = s * 16807 % 2147483647; return (s - 1) / 2147483646; };
  }

  var FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Niklaus',
               'Margaret', 'John', 'Radia', 'Tony', 'Leslie', 'Jean', 'Dennis'];
  var LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson',
              'Wirth', 'Hamilton', 'Backus', 'Perlman', 'Hoare', 'Lamport', 'Sammet', 'Ritchie'];
  var CITY = ['Zurich', 'Lisbon', 'Oslo', 'Kyoto', 'Austin', 'Nairobi', 'Montreal', 'Tallinn'];
  var TAG = ['admin', 'beta', 'billing', 'eu', 'us', 'mobile', 'trial', 'vip', 'legacy', 'api'];
  var STATUS = ['active', 'suspended', 'pending', 'closed'];
  var WORDS = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit',
               'sed', 'do', 'eiusmod', 'tempor', 'incididunt', 'ut', 'labore', 'magna'];

  function pick(r, a) { return a[Math.floor(r() * a.length)]; }
  function pad(n, w) { var s = String(n); while (s.length < w) s = '0' + s; return s; }

  function record(r, i) {
    var first = pick(r, FIRST), last = pick(r, LAST);
    var tags = [], nt = 1 + Math.floor(r() * 3);
    for (var k = 0; k < nt; k++) tags.push(pick(r, TAG));
    var words = [], nw = 3 + Math.floor(r() * 6);
    for (var w = 0; w < nw; w++) words.push(pick(r, WORDS));
    return {
      id: 100000 + i,
      uuid: pad(Math.floor(r() * 1e8), 8) + '-' + pad(Math.floor(r() * 1e4), 4) + '-' + pad(i, 6),
      name: first + ' ' + last,
      email: first.toLowerCase() + '.' + last.toLowerCase() + i + '@example.com',
      active: r() < 0.7,
      verified: r() < 0.5,
      score: Math.round(r() * 100000) / 100,
      balance: Math.floor(r() * 1e6) - 250000,
      status: pick(r, STATUS),
      tags: tags,
      address: { street: Math.floor(r() * 900 + 1) + ' ' + pick(r, LAST) + ' Street',
                 city: pick(r, CITY), zip: pad(Math.floor(r() * 100000), 5),
                 geo: { lat: Math.round((r() * 180 - 90) * 1e5) / 1e5,
                        lng: Math.round((r() * 360 - 180) * 1e5) / 1e5 } },
      created: '2024-' + pad(1 + Math.floor(r() * 12), 2) + '-' + pad(1 + Math.floor(r() * 28), 2) +
               'T' + pad(Math.floor(r() * 24), 2) + ':' + pad(Math.floor(r() * 60), 2) + ':00Z',
      note: words.join(' '),
      manager: r() < 0.2 ? null : 100000 + Math.floor(r() * (i + 1))
    };
  }

  // An API response of about `bytes` bytes of JSON: records are added until
  // the next one would pass the size (at least one record).
  function jsonDoc(bytes) {
    var r = rng(bytes);
    var doc = { ok: true, version: 3, page: 1, total: 0, cursor: 'c' + bytes, items: [] };
    var size = JSON.stringify(doc).length;
    for (var i = 0; ; i++) {
      var rec = record(r, i), add = JSON.stringify(rec).length + 1;
      if (i > 0 && size + add > bytes) break;
      doc.items.push(rec);
      size += add;
    }
    doc.total = doc.items.length;
    return doc;
  }

  // Complete binary tree of the given depth (a leaf has depth 0), built
  // level by level from the leaves: 2^(depth+1) - 1 nodes.
  function tree(depth) {
    var level = [], v = 0, k;
    for (k = 0; k < (1 << depth); k++) level.push({ left: null, right: null, value: v++ });
    for (var d = depth - 1; d >= 0; d--) {
      var up = [];
      for (k = 0; k < level.length; k += 2) up.push({ left: level[k], right: level[k + 1], value: v++ });
      level = up;
    }
    return level[0];
  }

  // name -> maker, in report order
  var JSON_SIZES = [['json_400b', 400], ['json_5kb', 5000], ['json_50kb', 50000],
                    ['json_500kb', 500000], ['json_5mb', 5000000]];
  var NAMES = [];
  var makers = {};
  JSON_SIZES.forEach(function (p) {
    NAMES.push(p[0]);
    makers[p[0]] = function () { return jsonDoc(p[1]); };
  });
  for (var d = 2; d <= 14; d += 2) {
    (function (depth) {
      var name = 'tree_d' + (depth < 10 ? '0' : '') + depth;
      NAMES.push(name);
      makers[name] = function () { return tree(depth); };
    })(d);
  }

  function describe(name) {
    if (name.indexOf('tree_') === 0) {
      var depth = parseInt(name.slice(6), 10);
      return 'binary tree {left, right, value} of depth ' + depth + ' (' + ((1 << (depth + 1)) - 1) + ' nodes)';
    }
    var v = makers[name]();
    return 'JSON document of ' + JSON.stringify(v).length + ' B (' + v.items.length + ' records)';
  }

  exports.names = NAMES;
  exports.make = function (name) {
    if (!makers[name]) throw new RangeError('no payload ' + name);
    return makers[name]();
  };
  exports.describe = describe;
})(typeof module !== 'undefined' ? module.exports : (this.payloads = {}));
