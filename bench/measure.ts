/**
 * The measurements, against servers that run.sh has started:
 *   1. sample rows compared byte for byte through psql (lakegate vs PostgreSQL);
 *   2. rows/s streamed to psql and to node-postgres, median of --reps runs, with the
 *      server's peak RSS during each run (lakegate process; PostgreSQL backend);
 *   3. p50/p99 latency of a prepared point SELECT with 1 and 16 clients (pgbench).
 * Each result is one JSON line appended to --out. Every run is bounded in time.
 *
 * usage: tsx bench/measure.ts --targets postgres=PORT:postmaster:PID,pgbouncer=PORT:none:0
 *          [--lakegate 'PORT|DATADIR|LOGFILE|SRCDIR']   (started, watched and stopped here)
 *          --rows 1000000,10000000 --reps 3 --latency-seconds 20 --pgbench PATH
 *          --pgbouncer-prepared 0|1 --work DIR --out results.jsonl
 */
import pg from 'pg';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, createWriteStream, readdirSync, readFileSync, writeFileSync, type WriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { COLUMNS, sampleSql, tableName } from './lib/dataset.js';
import { arg, median, percentile, procStatusKb } from './lib/util.js';

interface Target { name: string; port: number; pidKind: 'process' | 'postmaster' | 'none'; pid: number }

const targets: Target[] = arg('targets').split(',').filter((x) => x).map((spec) => {
  const [name, rest] = spec.split('=');
  const [port, pidKind, pid] = rest.split(':');
  return { name, port: Number(port), pidKind: pidKind as Target['pidKind'], pid: Number(pid) };
});
const sizes = arg('rows').split(',').map(Number);
const reps = Number(arg('reps', '3'));
const latencySeconds = Number(arg('latency-seconds', '20'));
const pgbench = arg('pgbench', 'pgbench');
const pgbouncerPrepared = arg('pgbouncer-prepared', '0') === '1';
const work = arg('work');
const out = arg('out');

const emit = (rec: Record<string, unknown>): void => appendFileSync(out, JSON.stringify(rec) + '\n');
const log = (s: string): void => {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
};
const byName = (n: string): Target | undefined => targets.find((t) => t.name === n);
const streamTargets = (): Target[] => ['postgres', 'lakegate'].map(byName).filter((t): t is Target => t !== undefined);

// ------------------------------------------------------------------ child processes
interface ProcResult { code: number | null; signal: string | null; stdout: string; stderr: string; ms: number; timedOut: boolean }

function runProcess(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs: number; captureStdout?: boolean }): Promise<ProcResult> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, {
      env: opts.env ?? process.env,
      stdio: ['ignore', opts.captureStdout ? 'pipe' : 'ignore', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr?.on('data', (d: Buffer) => { if (stderr.length < 20000) stderr += d.toString(); });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, opts.timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - t0, timedOut });
    });
  });
}

// ------------------------------------------------------------------ lakegate process
/**
 * lakegate runs as a child of this script: `node --import lib/signal-log.mjs
 * dist/bin/lakegate.js demo --port P --data-dir D`, output appended to its log. If it
 * exits during the run, the exit (code or signal, time) is recorded as a note and it
 * is started again (at most 3 times) for the remaining points, which are marked.
 */
const lakegateSpec = arg('lakegate', '');
let lakegate: ChildProcess | null = null;
let restarts = 0;
let stopping = false;
let lakegateLog: WriteStream | null = null;

async function startLakegate(): Promise<boolean> {
  const [port, dataDir, logFile, srcDir] = lakegateSpec.split('|');
  lakegateLog ??= createWriteStream(logFile, { flags: 'a' });
  const preload = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'lib', 'signal-log.mjs')).href;
  const child = spawn(process.execPath, ['--import', preload, 'dist/bin/lakegate.js', 'demo', '--port', port, '--data-dir', dataDir, '--ops-port', 'off'], {
    cwd: srcDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const ready = `listening on 127.0.0.1:${port}`;
  let seen = '';
  const ok = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 60_000);
    const onData = (d: Buffer): void => {
      lakegateLog!.write(d);
      if (seen.length < 100_000) seen += d.toString();
      if (seen.includes(ready)) { clearTimeout(timer); resolve(true); }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => { clearTimeout(timer); resolve(false); });
  });
  if (!ok) {
    child.kill('SIGKILL');
    emit({ kind: 'note', text: `lakegate did not start (no "${ready}" within 60 s): ${seen.trim().split('\n').slice(-3).join(' | ')}` });
    log(`lakegate did not start: ${seen.trim().split('\n').slice(-3).join(' | ')}`);
    return false;
  }
  child.once('exit', (code, signal) => {
    if (stopping) return;
    const text = `lakegate (pid ${child.pid}) exited during the run at ${new Date().toISOString()}: ${signal ? 'signal ' + signal : 'exit code ' + code}` +
      (code === 0 ? ' (its SIGTERM/SIGINT handler exits 0: a signal from outside the bench; see lakegate.log)' : '');
    emit({ kind: 'note', text });
    log(text);
  });
  lakegate = child;
  writeFileSync(`${logFile}.pid`, String(child.pid)); // run.sh's cleanup ends it by this pid if this script dies
  const t = byName('lakegate');
  if (t) t.pid = child.pid!;
  else targets.unshift({ name: 'lakegate', port: Number(port), pidKind: 'process', pid: child.pid! });
  log(`lakegate on 127.0.0.1:${port} (pid ${child.pid})`);
  return true;
}

async function stopLakegate(): Promise<void> {
  stopping = true;
  const child = lakegate;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  if (await Promise.race([gone.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]) === false) child.kill('SIGKILL');
}

/** Before each measurement: a lakegate that died is restarted (at most 3 times); false if it cannot be. */
async function targetUp(t: Target): Promise<boolean> {
  if (t.name !== 'lakegate' || !lakegate) return true;
  if (lakegate.exitCode === null && lakegate.signalCode === null) return true;
  if (restarts >= 3) return false;
  restarts++;
  emit({ kind: 'note', text: `lakegate restarted (${restarts}) at ${new Date().toISOString()}; the points after this are measured on the new process` });
  return startLakegate();
}

const envFor = (t: Target): NodeJS.ProcessEnv => ({ ...process.env, PGHOST: '127.0.0.1', PGPORT: String(t.port) });

// ------------------------------------------------------------------ server memory
/**
 * Peak memory of the server side of one run: the lakegate process, or PostgreSQL's
 * client backend(s). `hwmKb` is VmHWM (peak resident set, shared memory included: a
 * PostgreSQL backend counts the shared buffers it touched); `anonKb` is the largest
 * RssAnon (private memory) seen by sampling every 100 ms.
 */
class PeakRss {
  hwmKb = 0;
  anonKb = 0;
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly t: Target) {}

  start(): void {
    if (this.t.pidKind === 'process') {
      // Reset the high-water mark so VmHWM covers this run only.
      try { writeFileSync(`/proc/${this.t.pid}/clear_refs`, '5'); } catch { /* not permitted: VmHWM is then the lifetime peak */ }
    }
    if (this.t.pidKind !== 'none') this.timer = setInterval(() => this.sample(), 100);
  }

  private take(pid: number): void {
    this.hwmKb = Math.max(this.hwmKb, procStatusKb(pid, 'VmHWM') || 0);
    this.anonKb = Math.max(this.anonKb, procStatusKb(pid, 'RssAnon') || 0);
  }

  sample(): void {
    if (this.t.pidKind === 'process') {
      this.take(this.t.pid);
      return;
    }
    if (this.t.pidKind !== 'postmaster') return;
    for (const ent of readdirSync('/proc')) {
      if (!/^\d+$/.test(ent)) continue;
      try {
        const stat = readFileSync(`/proc/${ent}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid !== this.t.pid) continue;
        const cmd = readFileSync(`/proc/${ent}/cmdline`, 'utf8');
        // "postgres: alice demo 127.0.0.1(port) SELECT" — the client backend (not checkpointer etc.)
        if (!cmd.startsWith('postgres: alice ') && !cmd.startsWith('postgres: parallel worker')) continue;
        this.take(Number(ent));
      } catch { /* process ended between readdir and read */ }
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.sample();
  }
}

// ------------------------------------------------------------------ 1. sample rows
async function sampleCheck(rows: number): Promise<void> {
  const pgT = byName('postgres');
  const lgT = byName('lakegate');
  if (!pgT || !lgT) return;
  const sql = sampleSql(rows);
  const [a, b] = await Promise.all([pgT, lgT].map((t) =>
    runProcess('psql', ['-X', '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql], { env: envFor(t), timeoutMs: 120_000, captureStdout: true })));
  const equal = a.code === 0 && b.code === 0 && a.stdout === b.stdout;
  let firstDiff: Record<string, string> | undefined;
  if (!equal) {
    const la = a.stdout.split('\n');
    const lb = b.stdout.split('\n');
    const i = la.findIndex((l, k) => l !== lb[k]);
    firstDiff = { postgres: la[i] ?? a.stderr.trim(), lakegate: lb[i] ?? b.stderr.trim() };
  }
  emit({ kind: 'sample', rows, lines: a.stdout.split('\n').length - 1, equal, firstDiff, lakegateError: b.code === 0 ? undefined : b.stderr.trim() });
  log(`sample rows of ${tableName(rows)} through psql: ${equal ? 'identical text' : 'DIFFERENT: ' + JSON.stringify(firstDiff)}`);
}

// ------------------------------------------------------------------ 2. streaming
const streamTimeoutMs = (rows: number): number => 60_000 + rows / 20; // 20k rows/s floor, plus a minute

async function streamPsql(t: Target, rows: number): Promise<{ ms: number; error?: string }> {
  const r = await runProcess('psql', ['-X', '-At', '-v', 'ON_ERROR_STOP=1', '-c', `select * from ${tableName(rows)}`], {
    env: envFor(t),
    timeoutMs: streamTimeoutMs(rows),
  });
  if (r.timedOut) return { ms: r.ms, error: `timed out after ${Math.round(r.ms / 1000)} s` };
  if (r.code !== 0) return { ms: r.ms, error: `psql exit ${r.code ?? r.signal}: ${r.stderr.trim().slice(0, 500)}` };
  return { ms: r.ms };
}

/**
 * node-postgres, extended protocol, rowMode 'array', each row counted and dropped
 * (a 'row' listener and no callback: the client never holds the result).
 * batch > 0: the unnamed portal is fetched `batch` rows at a time (Execute with a row
 * limit → PortalSuspended → Execute …, as pg-cursor / pg-query-stream do);
 * batch = 0: one Execute for all rows.
 */
async function streamNode(t: Target, rows: number, rss: PeakRss, batch: number): Promise<{ ms: number; error?: string }> {
  const client = new pg.Client({ host: '127.0.0.1', port: t.port });
  client.on('error', () => { /* reported through the query */ });
  await client.connect();
  try {
    const t0 = performance.now();
    const count = await new Promise<number>((resolve, reject) => {
      const q = new pg.Query({ text: `select * from ${tableName(rows)}`, rowMode: 'array', ...(batch > 0 ? { rows: batch } : {}), queryMode: 'extended' } as pg.QueryConfig & { rows: number; queryMode: string });
      let n = 0;
      let width = -1;
      const timer = setTimeout(() => reject(new Error(`timed out after ${streamTimeoutMs(rows) / 1000} s at ${n} rows`)), streamTimeoutMs(rows));
      q.on('row', (row: unknown[]) => { n++; if (width < 0) width = row.length; });
      q.on('error', (e: Error) => { clearTimeout(timer); reject(e); });
      q.on('end', () => {
        clearTimeout(timer);
        if (width !== COLUMNS.length) reject(new Error(`rows have ${width} columns, expected ${COLUMNS.length}`));
        else resolve(n);
      });
      client.query(q as unknown as pg.QueryConfig);
    });
    const ms = performance.now() - t0;
    rss.sample(); // the PostgreSQL backend is still alive here
    if (count !== rows) return { ms, error: `received ${count} rows, expected ${rows}` };
    return { ms };
  } catch (e) {
    return { ms: NaN, error: (e as Error).message };
  } finally {
    await Promise.race([client.end(), new Promise((r) => setTimeout(r, 5000))]).catch(() => undefined);
  }
}

const STREAM_CLIENTS = ['psql', 'node-pg', 'node-pg-cursor'] as const;

async function streaming(): Promise<void> {
  for (const rows of sizes) {
    await sampleCheck(rows);
    for (const client of STREAM_CLIENTS) {
      const runs = new Map<string, { times: number[]; hwmKb: number[]; anonKb: number[]; error?: string }>();
      for (const t of streamTargets()) runs.set(t.name, { times: [], hwmKb: [], anonKb: [] });
      // Interleave the targets rep by rep so drift on a shared machine hits both alike.
      for (let rep = 0; rep < reps; rep++) {
        for (const t of streamTargets()) {
          const acc = runs.get(t.name)!;
          if (acc.error) continue;
          if (!(await targetUp(t))) { acc.error = 'server process died and could not be restarted'; continue; }
          const rss = new PeakRss(t);
          rss.start();
          const r = client === 'psql' ? await streamPsql(t, rows)
            : await streamNode(t, rows, rss, client === 'node-pg-cursor' ? 10_000 : 0);
          rss.stop();
          if (r.error) {
            acc.error = r.error;
            log(`${client} ← ${t.name} ${rows} rows: FAILED: ${r.error}`);
            continue;
          }
          acc.times.push(r.ms);
          acc.hwmKb.push(rss.hwmKb);
          acc.anonKb.push(rss.anonKb);
          log(`${client} ← ${t.name} ${rows} rows: ${(r.ms / 1000).toFixed(2)} s, ${(rows / r.ms / 1000).toFixed(3)} M rows/s, server peak RSS ${(rss.hwmKb / 1024).toFixed(0)} MiB (private ${(rss.anonKb / 1024).toFixed(0)} MiB)`);
        }
      }
      for (const t of streamTargets()) {
        const acc = runs.get(t.name)!;
        const ms = acc.times.length ? median(acc.times) : NaN;
        emit({
          kind: 'stream', target: t.name, client, rows, ms, times: acc.times,
          rowsPerSec: rows / (ms / 1000), error: acc.error,
          peakRssKb: acc.hwmKb.length ? Math.max(...acc.hwmKb) : null, peakAnonKb: acc.anonKb.length ? Math.max(...acc.anonKb) : null,
        });
      }
    }
  }
}

// ------------------------------------------------------------------ 3. latency
async function latency(): Promise<void> {
  const rows = sizes[0];
  const script = join(work, 'point-select.sql');
  writeFileSync(script, `\\set id random(1, ${rows})\nSELECT ${COLUMNS.join(', ')} FROM ${tableName(rows)} WHERE id = :id;\n`);
  for (const clients of [1, 16]) {
    // PgBouncer before 1.21 cannot keep named prepared statements in transaction pooling:
    // the same parameterised statement then goes as unnamed Parse/Bind/Execute (-M extended),
    // and PostgreSQL direct is measured in that mode too, so the pooler's own cost shows.
    const points: Array<[string, 'prepared' | 'extended']> = [['lakegate', 'prepared'], ['postgres', 'prepared']];
    if (pgbouncerPrepared) points.push(['pgbouncer', 'prepared']);
    else points.push(['postgres', 'extended'], ['pgbouncer', 'extended']);
    for (const [name, mode] of points) {
      const t = byName(name);
      if (!t) continue;
      if (!(await targetUp(t))) {
        emit({ kind: 'latency', target: name, clients, mode, rows, seconds: latencySeconds, count: 0, failed: 0, p50us: NaN, p99us: NaN, tps: NaN, error: 'server process died and could not be restarted' });
        continue;
      }
      const prefix = `pgb_${name}_${mode}_${clients}`;
      const args = ['-n', '-M', mode, '-f', script, '-c', String(clients), '-j', String(Math.min(clients, 2)),
        '-T', String(latencySeconds), '--log', `--log-prefix=${join(work, prefix)}`, '-h', '127.0.0.1', '-p', String(t.port), 'demo'];
      const r = await runProcess(pgbench, args, { env: envFor(t), timeoutMs: (latencySeconds + 60) * 1000, captureStdout: true });
      const lat: number[] = [];
      let failed = 0;
      for (const f of readdirSync(work).filter((f) => f.startsWith(prefix + '.'))) {
        for (const line of readFileSync(join(work, f), 'utf8').split('\n')) {
          const fields = line.split(' ');
          if (fields.length < 3) continue;
          const us = Number(fields[2]);
          if (Number.isFinite(us)) lat.push(us); else failed++;
        }
      }
      const sorted = Float64Array.from(lat).sort();
      const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(r.stdout)?.[1] ?? NaN);
      const error = r.timedOut ? 'pgbench timed out' : r.code !== 0 ? `pgbench exit ${r.code ?? r.signal}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}` : undefined;
      const rec = {
        kind: 'latency', target: name, clients, mode, rows, seconds: latencySeconds, count: sorted.length, failed,
        p50us: percentile(sorted, 50), p99us: percentile(sorted, 99), meanUs: lat.reduce((a, b) => a + b, 0) / (lat.length || 1), tps, error,
      };
      emit(rec);
      log(`pgbench ${mode} ${clients} client(s) → ${name}: ${sorted.length} tx, p50 ${(rec.p50us / 1000).toFixed(3)} ms, p99 ${(rec.p99us / 1000).toFixed(3)} ms, ${tps.toFixed(0)} tps${error ? ' — ' + error : ''}`);
    }
  }
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => { void stopLakegate().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143)); });
}
try {
  if (lakegateSpec) await startLakegate();
  await streaming();
  await latency();
} finally {
  await stopLakegate();
  (lakegateLog as WriteStream | null)?.end();
}
