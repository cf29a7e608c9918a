// Loaded into lakegate's gateway and its engine child processes through NODE_OPTIONS=--require
// (bench/floor.sh). The gateway ends its engine children with SIGKILL, so `--cpu-prof` would never
// write their profile, and it would also count start-up: this preload drives V8's sampling profiler
// through the inspector instead, on the main thread of every process that has $LG_FLOOR_PROF_DIR:
// the first SIGUSR2 starts a profile, the second stops it and writes
// $LG_FLOOR_PROF_DIR/{gateway,engine}-<pid>.cpuprofile (and <role>-<pid>.ops.json: the engine's requests by op, the gateway's socket write calls). floor.sh sends both by pid, around the
// pgbench run, after a warm-up. (lakegate itself handles no SIGUSR2.) No-op without the variable.
'use strict';
const dir = process.env.LG_FLOOR_PROF_DIR;
const { isMainThread } = require('node:worker_threads');
if (dir && isMainThread) {
  const inspector = require('node:inspector');
  const fs = require('node:fs');
  const path = require('node:path');
  const role = typeof process.send === 'function' ? 'engine' : 'gateway';
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: Number(process.env.LG_FLOOR_PROF_US || 250) });
  let running = false;
  // The engine's requests by op while profiling: how many round trips a statement costs.
  const ops = {};
  // The gateway's socket writes (net.Socket#write and #writev batches) while profiling.
  if (role === 'gateway') {
    const proto = require('node:net').Socket.prototype;
    for (const name of ['write', 'cork']) {
      const orig = proto[name];
      proto[name] = function (...args) { if (running) ops[`socket.${name}`] = (ops[`socket.${name}`] || 0) + 1; return orig.apply(this, args); };
    }
  }
  // Counted by wrapping process.emit: a 'message' listener of our own would start reading the IPC
  // channel before child.ts listens, and the gateway's first request would be emitted to us alone.
  if (role === 'engine') {
    const emit = process.emit;
    process.emit = function (ev, m, ...rest) {
      if (ev === 'message' && running && m && m.op) ops[m.op] = (ops[m.op] || 0) + 1;
      return emit.call(this, ev, m, ...rest);
    };
  }
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.start');
      return;
    }
    running = false;
    session.post('Profiler.stop', (err, res) => {
      if (!err) fs.writeFileSync(path.join(dir, `${role}-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
      fs.writeFileSync(path.join(dir, `${role}-${process.pid}.ops.json`), JSON.stringify(ops));
    });
  });
}
