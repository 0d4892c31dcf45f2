'use strict';
// exclude.js - the members the interop sweep never calls, each with the
// reason. Only members that end or damage the process or the machine, or
// that wait without end, are here: members that merely crash the bridge
// today are NOT (finding those is the point of the sweep).
//
// A rule: { cls, names, params?, why }
//   cls     a class or interface name; the rule applies to it and to every
//           class assignable to it ('*': every class)
//   names   member names ('<init>' for constructors, a field's name for a
//           field); a name ending in '*' is a prefix
//   params  optional RegExp over the member's parameter list as written in
//           an explicit signature ("java.lang.String,int"): the rule applies
//           only when it matches
//   why     the reason, printed with --list-excluded
//
// The sweep also runs in a fresh temporary directory with java.io.tmpdir
// set to it and only ever passes relative sample paths, so file creation,
// writing and deletion through java.io.File, RandomAccessFile, the file
// streams and File.createTempFile stay inside that directory and are not
// excluded.

const TIMED = /java\.util\.concurrent\.TimeUnit|java\.time\.Duration/;

module.exports = [
  // the process
  { cls: 'java.lang.System', names: ['exit'], why: 'ends the process' },
  { cls: 'java.lang.Runtime', names: ['exit', 'halt'], why: 'ends the process' },
  { cls: 'java.lang.Runtime', names: ['exec'], why: 'starts arbitrary programs' },
  { cls: 'java.lang.ProcessBuilder', names: ['start', 'startPipeline'], why: 'starts arbitrary programs' },
  { cls: 'java.lang.ProcessHandle', names: ['destroy', 'destroyForcibly'], why: 'kills processes (ProcessHandle.of(1) is init)' },
  { cls: 'java.lang.Process', names: ['destroy', 'destroyForcibly', 'waitFor'], why: 'kills or waits for processes' },
  { cls: 'java.lang.System', names: ['setIn', 'setOut', 'setErr'], why: 'replaces the standard streams the sweep reports on' },
  { cls: 'java.lang.System', names: ['setSecurityManager'], why: 'a security manager can forbid the rest of the run (and exit)' },
  { cls: 'java.lang.System', names: ['setProperties'], why: 'resets java.io.tmpdir away from the sweep\'s temporary directory' },
  { cls: 'java.lang.System', names: ['load', 'loadLibrary'], why: 'loads native code into the process' },
  { cls: 'java.lang.Runtime', names: ['load', 'loadLibrary'], why: 'loads native code into the process' },
  // threads
  { cls: 'java.lang.Thread', names: ['stop', 'suspend'], why: 'kills or freezes threads (deprecated, unsafe)' },
  { cls: 'java.lang.ThreadGroup', names: ['stop', 'suspend'], why: 'kills or freezes every thread of a group' },
  { cls: 'java.lang.Thread', names: ['sleep', 'join'], why: 'waits as long as a long argument says' },
  { cls: '*', names: ['wait'], why: 'Object.wait waits without end (or a long time)' },
  // waits of java.util.concurrent
  { cls: 'java.util.concurrent.TimeUnit', names: ['sleep', 'timedJoin', 'timedWait'], why: 'waits as long as a long argument says' },
  { cls: 'java.util.concurrent.locks.LockSupport', names: ['park*'], why: 'parks the thread without end' },
  { cls: 'java.util.concurrent.BlockingQueue', names: ['take', 'put'], why: 'waits without end on an empty or full queue' },
  { cls: 'java.util.concurrent.BlockingDeque', names: ['takeFirst', 'takeLast', 'putFirst', 'putLast'], why: 'waits without end on an empty or full deque' },
  { cls: 'java.util.concurrent.CompletionService', names: ['take'], why: 'waits without end for a completed task' },
  { cls: 'java.util.concurrent.TransferQueue', names: ['transfer'], why: 'waits without end for a consumer' },
  { cls: 'java.util.concurrent.Future', names: ['get', 'join', 'invoke', 'quietlyJoin', 'quietlyInvoke', 'helpQuiesce'], why: 'waits without end for a result' },
  { cls: 'java.util.concurrent.CountDownLatch', names: ['await'], why: 'waits without end' },
  { cls: 'java.util.concurrent.CyclicBarrier', names: ['await'], why: 'waits without end for the other parties' },
  { cls: 'java.util.concurrent.Phaser', names: ['awaitAdvance*', 'arriveAndAwaitAdvance'], why: 'waits without end for the other parties' },
  { cls: 'java.util.concurrent.Exchanger', names: ['exchange'], why: 'waits without end for a partner' },
  { cls: 'java.util.concurrent.Semaphore', names: ['acquire*'], why: 'waits without end for a permit' },
  { cls: 'java.util.concurrent.locks.StampedLock', names: ['readLock', 'writeLock', 'readLockInterruptibly', 'writeLockInterruptibly'], why: 'not reentrant: waits without end on itself' },
  { cls: 'java.util.concurrent.ExecutorService', names: ['awaitTermination', 'invokeAll', 'invokeAny', 'close'], why: 'waits for tasks (without end on a pool that never ends them)' },
  { cls: 'java.util.concurrent.ForkJoinPool', names: ['awaitQuiescence', 'managedBlock'], why: 'waits for the pool to be idle' },
  { cls: 'java.util.concurrent.ForkJoinTask', names: ['invokeAll', 'helpQuiesce'], why: 'waits for tasks' },
  { cls: '*', names: ['poll*', 'offer*', 'tryAcquire', 'tryAcquireShared*', 'tryLock', 'tryReadLock', 'tryWriteLock', 'tryTransfer', 'await*', 'get', 'exchange', 'join'],
    params: TIMED, why: 'a timed wait: the sweep passes timeouts up to 2^53' },
  // network: nothing may leave the machine or wait for a peer
  { cls: 'java.net.Socket', names: ['<init>'], params: /String|InetAddress/, why: 'connects to a host' },
  { cls: 'java.net.Socket', names: ['connect'], why: 'connects to a host' },
  { cls: 'java.net.ServerSocket', names: ['accept'], why: 'waits without end for a connection' },
  { cls: 'java.net.DatagramSocket', names: ['send', 'receive', 'connect', 'joinGroup', 'leaveGroup'], why: 'sends to the network or waits without end for a packet' },
  { cls: 'java.net.InetAddress', names: ['getByName', 'getAllByName', 'getLocalHost', 'getHostName', 'getCanonicalHostName', 'isReachable'],
    why: 'name-service lookups or packets to a host' },
  { cls: 'java.net.InetSocketAddress', names: ['<init>'], params: /^java\.lang\.String,int$/, why: 'looks the host name up' },
  { cls: 'java.net.URL', names: ['openConnection', 'openStream', 'getContent'], why: 'connects to the URL\'s host' },
  { cls: 'java.net.URLConnection', names: ['connect', 'getInputStream', 'getOutputStream', 'getContent*', 'getHeader*', 'getResponse*'], why: 'connects to a host' },
  { cls: 'java.net.URLClassLoader', names: ['getResource*', 'findResource*', 'loadClass', 'findClass'], why: 'fetches from the loader\'s URLs' },
];
