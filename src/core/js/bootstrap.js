// bootstrap.js - runs last: checks that the earlier scripts left what the C
// side calls (internal.inspect, internal.format, internal.runMain), and
// keeps 10 stack frames per error as Node does.
(function (native, internal) {
  'use strict';
  Error.stackTraceLimit = 10;
  for (const name of ['inspect', 'format', 'runMain', 'resolveMain']) {
    if (typeof internal[name] !== 'function') {
      throw new Error(`strait bootstrap: internal.${name} is missing`);
    }
  }
});
