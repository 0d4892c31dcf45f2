'use strict';
// Shared helpers of the Java bridge specs.

// Calls fn and returns what it threw; fails when it does not throw, when
// the error is not an instance of type, or its message does not match re.
function thrown(fn, type, re) {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  if (err === undefined) throw new Error('expected a throw');
  if (type && !(err instanceof type)) {
    throw new Error('expected ' + type.name + ', got ' + (err && err.name) + ': ' + (err && err.message));
  }
  if (re && !re.test(String(err && err.message))) {
    throw new Error('message ' + JSON.stringify(err && err.message) + ' does not match ' + re);
  }
  return err;
}

module.exports = { thrown };
