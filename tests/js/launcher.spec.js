'use strict';
// The strait launcher run as a child process (through java.lang.ProcessBuilder):
// exit codes, standard output and error, process.argv, error reports.
// tests/js/launcher_cli.test.sh covers the same ground and more from a shell.
const { describe, it, expect } = require('./runner');

const haveJava = typeof java !== 'undefined';
const itJ = haveJava ? it : it.skip;
const STRAIT = process.argv[0];

// Runs strait with args (and optional stdin text); returns { code, out, err }.
function strait(args, input) {
  const cmd = new java.util.ArrayList();
  cmd.add(STRAIT);
  for (const a of args) cmd.add(a);
  const pb = new java.lang.ProcessBuilder(cmd);
  pb.directory(new java.io.File(__dirname));
  const p = pb.start();
  const stdin = new java.io.OutputStreamWriter(p.getOutputStream(), 'UTF-8');
  if (input !== undefined) stdin.write(input);
  stdin.close();
  const out = String(new java.lang.String(p.getInputStream().readAllBytes(), 'UTF-8'));
  const err = String(new java.lang.String(p.getErrorStream().readAllBytes(), 'UTF-8'));
  return { code: p.waitFor(), out, err };
}

describe('strait as a child process', () => {
  itJ('runs -e code and exits 0', () => {
    const r = strait(['-e', 'console.log("child says hi")']);
    expect(r).toEqual({ code: 0, out: 'child says hi\n', err: '' });
  });

  itJ('prints the value of -p', () => {
    expect(strait(['-p', '[1, 2].map((x) => x * 10)']).out).toBe('[ 10, 20 ]\n');
  });

  itJ('passes script arguments in process.argv', () => {
    const r = strait(['-e', 'console.log(JSON.stringify(process.argv.slice(1)))', 'one', 'two words']);
    expect(JSON.parse(r.out)).toEqual(['one', 'two words']);
  });

  itJ('runs a script file with its absolute path as argv[1]', () => {
    const r = strait(['fixtures/mod/names.js']);
    expect(r.code).toBe(0);
    const r2 = strait(['-e', 'console.log(require("./fixtures/mod/value").answer)']);
    expect(r2.out).toBe('42\n');
  });

  itJ('exits 1 on an uncaught error, reported as FILE:LINE:COLUMN: Name: message', () => {
    const r = strait(['fixtures/mod/throws_once.js']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    const first = r.err.split('\n')[0];
    expect(first).toMatch(/\/fixtures\/mod\/throws_once\.js:3:\d+: Error: first load fails$/);
  });

  itJ('exits 2 for a missing script, naming it', () => {
    const r = strait(['no/such/script.js']);
    expect(r.code).toBe(2);
    expect(r.err).toBe("strait: cannot open 'no/such/script.js': No such file or directory\n");
  });

  itJ('exits with the code given to process.exit', () => {
    expect(strait(['-e', 'process.exit(7)']).code).toBe(7);
    expect(strait(['-e', 'setTimeout(() => process.exit(9), 1)']).code).toBe(9);
  });

  itJ('writes console.error to standard error', () => {
    const r = strait(['-e', 'console.error("oops"); console.log("fine")']);
    expect(r.out).toBe('fine\n');
    expect(r.err).toBe('oops\n');
  });

  itJ('reads a script from standard input with -', () => {
    const r = strait(['-'], 'console.log(6 * 7)\n');
    expect(r.out).toBe('42\n');
  });
});
