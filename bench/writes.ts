/**
 * Issue 19's write speed, side by side in one run (bench/README.md, "Writes"):
 *
 * - CREATE TABLE … AS SELECT * of N lineitem rows (bench/lib/lineitem.ts) through
 *   `lakegate demo` as the engineer bob (node-postgres), against DuckDB in-process
 *   writing the same Iceberg table the same way (the same DuckDB build and
 *   iceberg extension, attached to the same embedded catalog through a
 *   LoopbackCatalog in this process: CREATE TABLE + INSERT … SELECT * FROM
 *   iceberg_scan of the same metadata file, in one transaction, with the
 *   engine's threads, memory limit and lock-down), and against PostgreSQL 15's
 *   CREATE TABLE … AS; interleaved round by round, each copy dropped between
 *   runs, the first copy of each checked against the source's checksum. Per
 *   Iceberg run, the phases read from its files' times and the CPU seconds of
 *   each target's processes.
 * - One-row INSERT latency through psql in autocommit, lakegate and PostgreSQL
 *   interleaved statement by statement.
 * - A first-run `dbt run` of tests/integration/dbt-writes (its own timer,
 *   time-dbt-run.ts) on PostgreSQL and on `lakegate demo`.
 *
 * usage: tsx bench/writes.ts --bin dist/bin/lakegate.js --work TMP --out OUTDIR
 *          [--rows 10000000] [--reps 3] [--inserts 200] [--no-dbt]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import pg from 'pg';
import pino from 'pino';
import { SqlCatalogFile } from '../catalog/iceberg/sqlCatalog.js';
import { writeTable } from '../catalog/iceberg/writer.js';
import { LoopbackCatalog } from '../catalog/loopback/server.js';
import { startCatalog } from '../server/catalog.js';
import { DEMO_DATABASE, demoConfig, seedDemo } from '../server/demo.js';
import { mebibytes, parseMemorySize } from '../server/engine/memory.js';
import { defaultExtensionDirectory, ensureExtensions } from '../server/extensions.js';
import { defaultMemoryLimit } from '../server/gateway.js';
import { run } from '../tests/support/clients.js';
import { freePort } from '../tests/support/lakegate.js';
import { startPostgres } from '../tests/support/realPostgres.js';
import { phasesOf, writeFiles, type WriteFiles, type WritePhases } from './lib/icebergFiles.js';
import { checksumSql, LINEITEM_COLUMNS, LINEITEM_FIELDS, lineitemSelect, POSTGRES_DDL } from './lib/lineitem.js';
import { cpuSeconds, parentPid, treeCpu } from './lib/procCpu.js';
import { PsqlTimer } from './lib/psqlTimer.js';
import { LoadSampler } from './lib/loadSampler.js';
import { arg, percentile } from './lib/util.js';

const bin = arg('bin');
const work = arg('work');
const out = arg('out');
const rows = Number(arg('rows', '10000000'));
const reps = Number(arg('reps', '3'));
const inserts = Number(arg('inserts', '200'));
const withDbt = !process.argv.includes('--no-dbt');
const threads = availableParallelism();

// A signal (writes.sh's timeout, Ctrl-C) ends the run through process.exit, so the servers' exit handlers stop them.
process.once('SIGTERM', () => process.exit(143));
process.once('SIGINT', () => process.exit(130));
const log = (s: string) => process.stderr.write(`[writes ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const load = new LoadSampler();
const enter = (name: string) => load.enter(name);

type Target = 'lakegate' | 'duckdb' | 'postgres';
interface CtasRun {
  target: Target;
  round: number;
  ms: number;
  /** CPU seconds over the statement: lakegate's gateway process and its engine processes; this process (DuckDB and the endpoint); PostgreSQL's postmaster and its children */
  cpu: Record<string, number>;
  files?: WriteFiles;
  phases?: WritePhases;
}
const ctasRuns: CtasRun[] = [];
const checks: Record<string, Record<string, string>> = {};
const diagnostics: Record<string, { ms: number; cpuS: number; files?: number; mb?: number }> = {};
/** What DuckDB's Iceberg writer wrote: the Parquet codec and row groups of the reference's first copy. */
let parquetInfo = { codec: 'snappy', rowGroups: 0 };

const ICEBERG_DDL_TYPES: Record<string, string> = { long: 'BIGINT', int: 'INTEGER', 'decimal(15,2)': 'DECIMAL(15,2)', date: 'DATE', string: 'VARCHAR' };
const SOURCE = 'sales.lineitem';
const LG_COPY = 'copy';
const REF_COPY = 'copy_ref';
const PG_COPY = 'lineitem_copy';

const sameChecksum = (a: Record<string, string>, b: Record<string, string>) => JSON.stringify(a) === JSON.stringify(b);
function checked(name: string, got: Record<string, string>, expected: Record<string, string>): void {
  checks[name] = got;
  if (!sameChecksum(got, expected)) throw new Error(`${name}: checksum differs from the source's\n  got      ${JSON.stringify(got)}\n  expected ${JSON.stringify(expected)}`);
  log(`${name}: checksum equal to the source's`);
}
const duckRow = async (conn: DuckDBConnection, sql: string) => {
  const r = await conn.runAndReadAll(sql);
  const names = r.columnNames();
  return Object.fromEntries(r.getRows()[0]!.map((v, i) => [names[i]!, v === null ? 'NULL' : String(v)]));
};
const rawTypes = { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig;
const pgRow = async (c: pg.Client, sql: string) => {
  const r = await c.query<Record<string, string | null>>({ text: sql, types: rawTypes });
  return Object.fromEntries(Object.entries(r.rows[0]!).map(([k, v]) => [k, v ?? 'NULL']));
};

// ------------------------------------------------------------------ 1. the data

enter('data');
const dataDir = join(work, 'demo');
const { warehouse, sqliteFile } = await seedDemo(dataDir);
const extensionDirectory = defaultExtensionDirectory();
await ensureExtensions(extensionDirectory, ['avro', 'iceberg', 'httpfs']);
const gen = await DuckDBInstance.create(':memory:', { extension_directory: extensionDirectory, autoinstall_known_extensions: 'false', threads: String(threads) });
const genConn = await gen.connect();
await genConn.run('LOAD iceberg');
let t = performance.now();
const sourceMetadata = await writeTable(genConn, { location: join(warehouse, 'sales', 'lineitem'), fields: LINEITEM_FIELDS, rows: lineitemSelect('duckdb', rows) });
const catalogFile = new SqlCatalogFile(sqliteFile, DEMO_DATABASE, { create: true });
try {
  catalogFile.createNamespace(['sales']);
  catalogFile.register(['sales'], 'lineitem', sourceMetadata);
} finally {
  catalogFile.close();
}
const icebergLoadS = (performance.now() - t) / 1000;
log(`${SOURCE}: ${rows} rows written as Iceberg in ${icebergLoadS.toFixed(1)} s`);
const scan = `iceberg_scan('${sourceMetadata}')`;
const sourceChecksum = await duckRow(genConn, checksumSql(scan));
genConn.closeSync();
gen.closeSync();

log('starting PostgreSQL and generating the same rows');
const server = await startPostgres({ settings: ["shared_buffers = '4GB'", "work_mem = '256MB'", "effective_cache_size = '12GB'", "max_wal_size = '8GB'"] });
const pgc = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database: 'postgres', query_timeout: 1_800_000 });
await pgc.connect();
t = performance.now();
await pgc.query(POSTGRES_DDL('lineitem'));
await pgc.query(`INSERT INTO lineitem ${lineitemSelect('postgres', rows)}`);
await pgc.query('VACUUM (ANALYZE) lineitem');
const postgresLoadS = (performance.now() - t) / 1000;
log(`PostgreSQL lineitem: ${rows} rows generated and vacuumed in ${postgresLoadS.toFixed(1)} s`);
checked('PostgreSQL lineitem', await pgRow(pgc, checksumSql('lineitem')), sourceChecksum);
const pgVersion = String((await pgc.query('SHOW server_version')).rows[0].server_version);
const pgSettings = Object.fromEntries(
  (await pgc.query("SELECT name, current_setting(name) AS v FROM pg_settings WHERE name IN ('shared_buffers', 'work_mem', 'max_wal_size', 'wal_level', 'fsync', 'synchronous_commit', 'full_page_writes', 'max_parallel_workers_per_gather', 'jit') ORDER BY name")).rows.map((r: { name: string; v: string }) => [r.name, r.v]),
);
const postmaster = parentPid(Number((await pgc.query('SELECT pg_backend_pid() AS p')).rows[0].p));

// ------------------------------------------------------------------ 2. lakegate, and DuckDB in-process on the same catalog

interface Gateway {
  port: number;
  pid: number;
  stop(): Promise<void>;
}
async function startDemo(): Promise<Gateway> {
  const port = await freePort();
  const logFile = createWriteStream(join(out, 'lakegate.log'));
  const child: ChildProcess = spawn(process.execPath, [bin, 'demo', '--port', String(port), '--data-dir', dataDir, '--ops-port', 'off'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LAKEGATE_LOG_LEVEL: 'info', NODE_OPTIONS: '' },
  });
  // never outlive the bench, whatever ends it
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  let text = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`lakegate demo did not start:\n${text}`)), 120_000);
    const on = (d: Buffer) => {
      logFile.write(d);
      if (text.length < 100_000) text += d.toString();
      if (text.includes(`listening on 127.0.0.1:${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`lakegate demo exited (${code}):\n${text}`));
    });
  });
  return {
    port,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      process.off('exit', reap);
      logFile.end();
    },
  };
}

enter('ctas');
log('starting lakegate demo');
const gateway = await startDemo();
const bob = new pg.Client({ host: '127.0.0.1', port: gateway.port, user: 'bob', password: 'bob', database: 'demo', query_timeout: 1_800_000 });
await bob.connect();

// The reference: what lakegate's engine is (DuckDB 1.5.5 with iceberg and httpfs, the same threads and per-user memory
// limit, locked down the same way), writing through a loopback endpoint of the same catalog as bob.
const engineMemory = mebibytes(Math.floor(parseMemorySize(defaultMemoryLimit())! / 2));
const refInstance = await DuckDBInstance.create(':memory:', {
  extension_directory: extensionDirectory,
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  allow_community_extensions: 'false',
  allow_unsigned_extensions: 'false',
  allow_persistent_secrets: 'false',
  threads: String(threads),
  memory_limit: engineMemory,
});
const ref = await refInstance.connect();
await ref.run('LOAD iceberg');
await ref.run('LOAD httpfs');
await ref.run(`SET GLOBAL allowed_directories = ['${warehouse}/']`);
await ref.run('SET GLOBAL enable_external_access = false');
await ref.run('SET GLOBAL lock_configuration = true');
const refCatalog = await startCatalog((await demoConfig({ host: '127.0.0.1', port: 0, dataDir })).catalog!, pino({ level: 'silent' }));
const endpoint = await LoopbackCatalog.start({ catalog: refCatalog.writer });
const refSession = endpoint.open({ user: 'bob' });
await ref.run(`ATTACH '${DEMO_DATABASE}' AS lake (TYPE iceberg, ENDPOINT '${refSession.url}', AUTHORIZATION_TYPE 'none')`);
const refColumns = LINEITEM_FIELDS.map((f) => `${f.name} ${ICEBERG_DDL_TYPES[f.type as string]}`).join(', ');

async function refCtas(name: string, select: string): Promise<number> {
  await ref.run('BEGIN');
  try {
    await ref.run(`CREATE TABLE lake.analytics.${name} (${refColumns})`);
    const r = await ref.run(`INSERT INTO lake.analytics.${name} ${select}`);
    await ref.run('COMMIT');
    return r.rowsChanged;
  } catch (e) {
    await ref.run('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
// DuckDB's DROP TABLE leaves the files (it does not ask for a purge); lakegate's purges, and so does this.
const refDrop = (name: string) => refCatalog.writer.dropTable({ user: 'bob' }, ['analytics'], name, { purge: true });

// warm-up: each target's first write (engine assignment, ATTACH, extension state) on 1,000 rows
const lgCount = async (sql: string) => (await bob.query(sql)).rowCount;
if ((await lgCount(`CREATE TABLE analytics.warm AS SELECT * FROM ${SOURCE} LIMIT 1000`)) !== 1000) throw new Error('lakegate warm-up CTAS did not write 1000 rows');
await bob.query('DROP TABLE analytics.warm');
if ((await refCtas('warm', `SELECT * FROM ${scan} LIMIT 1000`)) !== 1000) throw new Error('DuckDB warm-up did not write 1000 rows');
await refDrop('warm');
await pgc.query('CREATE TABLE warm AS SELECT * FROM lineitem LIMIT 1000');
await pgc.query('DROP TABLE warm');

const nsDir = join(warehouse, 'analytics');
const targets: Record<Target, { ctas(): Promise<{ rows: number; cpu: Record<string, number>; files?: WriteFiles | null; start: number; end: number }>; verify(): Promise<void>; drop(): Promise<void> }> = {
  lakegate: {
    async ctas() {
      const c0 = treeCpu(gateway.pid);
      const start = Date.now();
      const r = await bob.query(`CREATE TABLE analytics.${LG_COPY} AS SELECT * FROM ${SOURCE}`);
      const end = Date.now();
      const c1 = treeCpu(gateway.pid);
      return { rows: r.rowCount ?? -1, cpu: { gateway: c1.own - c0.own, engines: c1.children - c0.children }, files: writeFiles(nsDir, LG_COPY, start), start, end };
    },
    verify: async () => checked(`lakegate analytics.${LG_COPY}`, await pgRow(bob, checksumSql(`analytics.${LG_COPY}`)), sourceChecksum),
    drop: async () => void (await bob.query(`DROP TABLE analytics.${LG_COPY}`)),
  },
  duckdb: {
    async ctas() {
      const c0 = cpuSeconds(process.pid);
      const start = Date.now();
      const n = await refCtas(REF_COPY, `SELECT * FROM ${scan}`);
      const end = Date.now();
      return { rows: n, cpu: { process: cpuSeconds(process.pid) - c0 }, files: writeFiles(nsDir, REF_COPY, start), start, end };
    },
    async verify() {
      checked(`DuckDB lake.analytics.${REF_COPY}`, await duckRow(ref, checksumSql(`lake.analytics.${REF_COPY}`)), sourceChecksum);
      const run = ctasRuns.at(-1)!;
      if (run.files) {
        const info = await duckRow(ref, `SELECT string_agg(DISTINCT compression, ',') AS codec, count(DISTINCT (file_name, row_group_id)) AS row_groups FROM parquet_metadata('${run.files.location}/data/*.parquet')`);
        parquetInfo = { codec: info['codec']!, rowGroups: Number(info['row_groups']) };
      }
    },
    drop: () => refDrop(REF_COPY).then(() => undefined),
  },
  postgres: {
    async ctas() {
      const c0 = treeCpu(postmaster);
      const start = Date.now();
      const r = await pgc.query(`CREATE TABLE ${PG_COPY} AS SELECT * FROM lineitem`);
      const end = Date.now();
      const c1 = treeCpu(postmaster);
      return { rows: r.rowCount ?? -1, cpu: { postgres: c1.own + c1.children - c0.own - c0.children }, start, end };
    },
    verify: async () => checked(`PostgreSQL ${PG_COPY}`, await pgRow(pgc, checksumSql(PG_COPY)), sourceChecksum),
    drop: async () => {
      await pgc.query(`DROP TABLE ${PG_COPY}`);
      await pgc.query('CHECKPOINT');
    },
  },
};

const order: Target[] = ['lakegate', 'duckdb', 'postgres'];
for (let round = 0; round < reps; round++) {
  for (const target of [...order.slice(round % 3), ...order.slice(0, round % 3)]) {
    spawnSync('sync'); // every run starts with no dirty pages of the one before
    const r = await targets[target].ctas();
    if (r.rows !== rows) throw new Error(`${target}: CREATE TABLE AS wrote ${r.rows} rows, expected ${rows}`);
    const ms = r.end - r.start;
    const run: CtasRun = { target, round, ms, cpu: r.cpu };
    if (r.files) {
      run.files = r.files;
      run.phases = phasesOf(r.start, r.end, r.files);
    } else if (target !== 'postgres') log(`${target}: the table's files were not found`);
    ctasRuns.push(run);
    log(`round ${round + 1}/${reps} ${target}: ${(ms / 1000).toFixed(2)} s, CPU ${Object.entries(r.cpu).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ')}`);
    if (round === 0) await targets[target].verify();
    await targets[target].drop();
  }
}

// Where the engine's time goes, once each after the rounds (wall ms and CPU s of the process that ran it): the source
// alone read with every column decoded, in-process and through lakegate (the second of two runs); DuckDB's Parquet
// writer alone (COPY … TO one file, the codec its Iceberg writer used, no Iceberg); and DuckDB's Iceberg writer into a
// table created with `write.target-file-size-bytes` at Iceberg's default of 512 MiB (DuckDB's own default is 8 MiB:
// the rounds' copies are files of one row group each).
async function diagnose(name: string, pid: number, fn: () => Promise<unknown>): Promise<void> {
  spawnSync('sync');
  const c0 = treeCpu(pid);
  const s = performance.now();
  await fn();
  const c1 = treeCpu(pid);
  diagnostics[name] = { ms: performance.now() - s, cpuS: c1.own + c1.children - c0.own - c0.children };
}
const readAll = `SELECT ${LINEITEM_COLUMNS.map((c) => `max(${c})`).join(', ')}`;
for (let i = 0; i < 2; i++) {
  await diagnose('DuckDB in-process: read the source, every column decoded', process.pid, () => ref.run(`${readAll} FROM ${scan}`));
  await diagnose('lakegate: the same read (bob, node-postgres)', gateway.pid, () => bob.query(`${readAll} FROM ${SOURCE}`));
}
const diagFile = join(warehouse, 'diagnostics.parquet');
await diagnose(`DuckDB in-process: COPY (SELECT * …) TO one Parquet file, ${parquetInfo.codec.toLowerCase()}`, process.pid, () =>
  ref.run(`COPY (SELECT * FROM ${scan}) TO '${diagFile}' (FORMAT parquet, COMPRESSION ${parquetInfo.codec.toLowerCase()})`),
);
rmSync(diagFile, { force: true });
const BIG_FILES = 'copy_512mib';
await ref.run(`CREATE TABLE lake.analytics.${BIG_FILES} (${refColumns})`);
const created = await refCatalog.writer.loadTable({ user: 'bob' }, ['analytics'], BIG_FILES);
await refCatalog.writer.commitTable({ user: 'bob' }, ['analytics'], BIG_FILES, {
  requirements: [{ type: 'assert-table-uuid', uuid: created.raw!['table-uuid'] }],
  updates: [{ action: 'set-properties', updates: { 'write.target-file-size-bytes': String(512 * 2 ** 20) } }],
});
const bigStart = Date.now();
const bigName = 'DuckDB in-process: INSERT … SELECT * into an Iceberg table with write.target-file-size-bytes 512 MiB';
await diagnose(bigName, process.pid, () => ref.run(`INSERT INTO lake.analytics.${BIG_FILES} SELECT * FROM ${scan}`));
const bigFiles = writeFiles(nsDir, BIG_FILES, bigStart - 60_000);
if (bigFiles) Object.assign(diagnostics[bigName]!, { files: bigFiles.dataFiles, mb: bigFiles.dataBytes / 1e6 });
await refDrop(BIG_FILES);

// ------------------------------------------------------------------ 3. one-row INSERT latency, psql in autocommit

enter('inserts');
const insertRow = (table: string, i: number) =>
  `INSERT INTO ${table} VALUES (${i}, 155190, 7706, 1, 17.00, 21168.23, 0.04, 0.02, 'N', 'O', DATE '1996-03-13', DATE '1996-02-12', DATE '1996-03-22', 'DELIVER IN PERSON', 'TRUCK', 'egular courts above the')`;
await bob.query(POSTGRES_DDL('analytics.one_row'));
await pgc.query(POSTGRES_DDL('one_row'));
await ref.run(`CREATE TABLE lake.analytics.one_row_ref (${refColumns})`);
const psqlLg = new PsqlTimer({ host: '127.0.0.1', port: gateway.port, user: 'bob', password: 'bob', database: 'demo' });
const psqlPg = new PsqlTimer({ host: server.host, port: server.port, user: 'postgres', database: 'postgres' });
type InsertTarget = 'lakegate' | 'postgres' | 'duckdb';
// DuckDB in-process: the same INSERT through its loopback endpoint, timed around the call (no wire, no psql): the engine's
// and the Iceberg commit's share of lakegate's latency.
const inProcess = async (sql: string) => {
  const s = performance.now();
  await ref.run(sql);
  return performance.now() - s;
};
const insertMs: Record<InsertTarget, number[]> = { lakegate: [], postgres: [], duckdb: [] };
const WARM_INSERTS = 5;
for (let i = 0; i < inserts + WARM_INSERTS; i++) {
  const turn: [InsertTarget, (sql: string) => Promise<number>, string][] = [
    ['lakegate', (sql) => psqlLg.time(sql), 'analytics.one_row'],
    ['postgres', (sql) => psqlPg.time(sql), 'one_row'],
    ['duckdb', inProcess, 'lake.analytics.one_row_ref'],
  ];
  for (let k = 0; k < turn.length; k++) {
    const [name, time, table] = turn[(i + k) % turn.length]!;
    const ms = await time(insertRow(table, i));
    if (i >= WARM_INSERTS) insertMs[name].push(ms);
  }
}
await psqlLg.close();
await psqlPg.close();
const written = {
  lakegate: Number((await bob.query('SELECT count(*) AS n FROM analytics.one_row')).rows[0].n),
  postgres: Number((await pgc.query('SELECT count(*) AS n FROM one_row')).rows[0].n),
  duckdb: Number((await ref.runAndReadAll('SELECT count(*) FROM lake.analytics.one_row_ref')).getRows()[0]![0]),
};
if (Object.values(written).some((n) => n !== inserts + WARM_INSERTS)) throw new Error(`one-row tables hold ${JSON.stringify(written)} rows; expected ${inserts + WARM_INSERTS} each`);
log(`one-row INSERT: ${inserts} each after ${WARM_INSERTS} warm-up, each table holds ${written.lakegate} rows`);

await bob.end();
await gateway.stop();
ref.closeSync();
refInstance.closeSync();
await refSession.close();
await endpoint.close();
refCatalog.stop();
await pgc.end();
await server.stop();

// ------------------------------------------------------------------ 4. dbt run (first run of the test project), its own timer

interface DbtFigure {
  target: string;
  wallS: number;
  modelsS: number;
  runs: string[];
}
const dbt: DbtFigure[] = [];
if (withDbt) {
  enter('dbt');
  for (const flag of [[], ['--lakegate']]) {
    const target = flag.length ? 'lakegate demo' : 'PostgreSQL 15';
    log(`dbt run on ${target}: 3 first runs, each on a fresh server (tests/integration/dbt-writes/time-dbt-run.ts)`);
    const r = await run(join('node_modules', '.bin', 'tsx'), ['tests/integration/dbt-writes/time-dbt-run.ts', ...flag], { timeoutMs: 900_000 });
    if (r.code !== 0) throw new Error(`time-dbt-run.ts ${flag.join(' ')} failed (${r.code ?? r.signal}):\n${r.stdout}\n${r.stderr.slice(-3000)}`);
    const m = /median of \d+: ([\d.]+) s wall, ([\d.]+) s running the models/.exec(r.stdout);
    if (!m) throw new Error(`time-dbt-run.ts printed no median:\n${r.stdout}`);
    dbt.push({ target, wallS: Number(m[1]), modelsS: Number(m[2]), runs: r.stdout.split('\n').filter((l) => l.startsWith('run ')) });
  }
}

const loadSummary = load.stop();
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const insertStats = Object.fromEntries(
  Object.entries(insertMs).map(([k, xs]) => {
    const s = sorted(xs);
    return [k, { n: s.length, p50: percentile(s, 50), p90: percentile(s, 90), p99: percentile(s, 99), min: s[0], max: s.at(-1) }];
  }),
);
writeFileSync(
  join(out, 'results.json'),
  JSON.stringify(
    { rows, reps, threads, engineMemory, parquetInfo, icebergLoadS, postgresLoadS, pgVersion, pgSettings, sourceChecksum, checks, ctasRuns, diagnostics, insertStats, insertMs, dbt, load: loadSummary },
    null,
    1,
  ),
);
log('done');
