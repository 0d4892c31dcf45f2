// hello.js - a first strait script: plain JavaScript plus Java classes.
// Run it with `make run`, or `build/bin/strait examples/hello.js [your name]`.

const who = process.argv[2] || 'world';
console.log(`Hello, ${who}! This is JavaScript running on strait.`);

if (typeof java !== 'undefined') {
  // Java classes are reachable as java.*, javax.* and Packages.*.
  const list = new java.util.ArrayList();
  list.add('hello');
  list.add('from');
  list.add('Java');
  console.log(`A java.util.ArrayList with ${list.size()} items: ${list.toString()}`);

  const sb = new java.lang.StringBuilder();
  for (const word of ['JS', 'and', 'the', 'JVM']) sb.append(word).append(' ');
  console.log(sb.toString().trim() + ', in one process.');
  console.log('Running on Java ' + java.lang.System.getProperty('java.version'));
} else {
  console.log('(this build has no Java bridge yet: java.* is not available)');
}
