/**
 * The dbt write-path harness (issue 19): runs the project in tests/integration/dbt-writes/ with the
 * dbt-core 1.11 + dbt-postgres 1.11 of .venv-dbt/ (scripts/setup-python.sh) against any server that
 * speaks PostgreSQL — `seed`, `run`, `snapshot`, `test`, `docs generate`, then all of it again with
 * `--vars '{run: 2}'` — and dumps every relation dbt left in schema `analytics`: columns with their
 * types and comments, and the rows as PostgreSQL's text, sorted. Two servers that run the project
 * alike give equal dumps, so lakegate is compared with a real PostgreSQL 15 (startReferenceDemo).
 *
 * Columns dbt fills from the clock of the run cannot be equal between two servers; see NOW_DERIVED.
 * No Jest import here: tests/integration/dbt-writes/time-dbt-run.ts runs it outside Jest.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { REPO_ROOT } from './lakegate.js';
import { startPostgres, type RealPostgres } from './realPostgres.js';
import { ORDERS } from './target.js';

export const DBT_WRITES_PROJECT = path.join(REPO_ROOT, 'tests', 'integration', 'dbt-writes');
export const DBT_WRITES_SCHEMA = 'analytics';

/** Where dbt connects: the profile (profiles.yml) reads these through the environment. */
export interface DbtConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  dbname: string;
}

export type DbtPass = 1 | 2;
export type DbtCommand = 'seed' | 'run' | 'snapshot' | 'test' | 'docs generate';
export const DBT_LIFECYCLE: readonly DbtCommand[] = ['seed', 'run', 'snapshot', 'test', 'docs generate'];

/** One node of target/run_results.json. */
export interface DbtNodeResult {
  uniqueId: string;
  status: string;
  failures: number | null;
  message: string | null;
}

export interface DbtStep {
  pass: DbtPass;
  command: DbtCommand;
  /** dbt's exit code (null: killed by the timeout). */
  code: number | null;
  /** The run_results.json this invocation wrote; empty when it wrote none. */
  results: DbtNodeResult[];
  /** `docs generate` only: the relations catalog.json describes, and its errors (null: none). */
  catalog?: { nodes: string[]; errors: string[] | null };
  /** Wall time of the dbt process, start to exit (Python's start and the project's parse included). */
  elapsedMs: number;
  /** run_results.json's elapsed_time: dbt's own time for running the nodes, in seconds (null: no results). */
  nodesSeconds: number | null;
  /** The end of dbt's output, for failure messages. */
  output: string;
}

export interface ColumnDump {
  name: string;
  /** format_type(atttypid, atttypmod) */
  type: string;
  /** col_description: what persist_docs wrote, or null */
  comment: string | null;
}

export interface RelationDump {
  name: string;
  kind: 'table' | 'view' | string;
  /** obj_description: what persist_docs wrote, or null */
  comment: string | null;
  columns: ColumnDump[];
  /** Every row as PostgreSQL's text output (NULL as null), NOW_DERIVED columns replaced, sorted. */
  rows: (string | null)[][];
}

export interface DbtWritesRun {
  steps: DbtStep[];
  dump: RelationDump[];
}

/**
 * Columns whose values come from now() on the server (postgres__snapshot_get_time():
 * `now()::timestamp without time zone`), per relation, and why:
 * - customers_snapshot_check uses the check strategy without an `updated_at` config, so dbt's
 *   snapshot_check_strategy takes snapshot_get_time() as the version's time: dbt_updated_at and
 *   dbt_valid_from are the now() of the run that inserted the version, dbt_valid_to the now() of the
 *   run that closed it (a changed check column, or hard_deletes 'invalidate' for a removed
 *   customer), and dbt_scd_id = md5(customer_id || '|' || that now()::varchar).
 * - customers_snapshot_ts (timestamp strategy) is not listed: all four come from the source's
 *   updated_at (dbt_scd_id = md5(customer_id || '|' || updated_at::varchar)), so they are compared
 *   as they are. It keeps the default hard_deletes 'ignore'; with 'invalidate' a removed row's
 *   dbt_valid_to would be now().
 * Seeds, views, tables and incremental models hold no clock value.
 *
 * A timestamp listed here is dumped as `now()#k`, k being its rank among the distinct clock values
 * of the relation (1 = the first run's now(), 2 = the second's), so whether a version is current
 * (dbt_valid_to NULL) and which run opened or closed it are still compared; a hash is dumped as
 * `md5(now())`. NULL stays NULL.
 */
export const NOW_DERIVED: Readonly<Record<string, { clock: readonly string[]; hashed: readonly string[] }>> = {
  customers_snapshot_check: { clock: ['dbt_updated_at', 'dbt_valid_from', 'dbt_valid_to'], hashed: ['dbt_scd_id'] },
};

export function dbtBinary(): string {
  const bin = path.join(REPO_ROOT, '.venv-dbt', 'bin', 'dbt');
  if (!fs.existsSync(bin)) throw new Error(`${bin} not found: run scripts/setup-python.sh (dbt-core 1.11 and dbt-postgres 1.11 in .venv-dbt/)`);
  return bin;
}

/** A copy of the project in a temporary directory: dbt writes target/ and logs/ next to it. */
export class DbtProject {
  readonly dir: string;

  constructor() {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-dbt-writes-'));
    // the checklist and the timing script stay behind: dbt reads only its own files
    fs.cpSync(DBT_WRITES_PROJECT, this.dir, { recursive: true, filter: (src) => !/\.(md|ts)$/.test(src) });
  }

  async dbt(conn: DbtConnection, pass: DbtPass, command: DbtCommand, timeoutMs = 300000): Promise<DbtStep> {
    const resultsFile = path.join(this.dir, 'target', 'run_results.json');
    const catalogFile = path.join(this.dir, 'target', 'catalog.json');
    fs.rmSync(resultsFile, { force: true });
    fs.rmSync(catalogFile, { force: true });
    const args = [...command.split(' '), '--project-dir', this.dir, '--profiles-dir', this.dir, '--no-use-colors'];
    if (pass === 2) args.push('--vars', '{"run": 2}');
    const started = performance.now();
    const r = await spawnWithTimeout(dbtBinary(), args, {
      cwd: this.dir,
      env: {
        ...process.env,
        DBT_WRITES_HOST: conn.host,
        DBT_WRITES_PORT: String(conn.port),
        DBT_WRITES_USER: conn.user,
        DBT_WRITES_PASSWORD: conn.password,
        DBT_WRITES_DBNAME: conn.dbname,
        DBT_SEND_ANONYMOUS_USAGE_STATS: 'false',
        PYTHONDONTWRITEBYTECODE: '1',
      },
      timeoutMs,
    });
    const elapsedMs = performance.now() - started;
    const results = fs.existsSync(resultsFile) ? readRunResults(resultsFile) : null;
    const step: DbtStep = {
      pass,
      command,
      code: r.code,
      results: results?.nodes ?? [],
      elapsedMs,
      nodesSeconds: results?.elapsedSeconds ?? null,
      output: `${r.stdout.slice(-4000)}${r.stderr ? `\n[stderr]\n${r.stderr.slice(-2000)}` : ''}${r.timedOut ? '\n[timed out]' : ''}`,
    };
    if (command === 'docs generate' && fs.existsSync(catalogFile)) {
      const catalog = JSON.parse(fs.readFileSync(catalogFile, 'utf8')) as { nodes: Record<string, unknown>; errors: string[] | null };
      step.catalog = { nodes: Object.keys(catalog.nodes).sort(), errors: catalog.errors ?? null };
    }
    return step;
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

function readRunResults(file: string): { nodes: DbtNodeResult[]; elapsedSeconds: number } {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    elapsed_time: number;
    results: { unique_id: string; status: string; failures: number | null; message: string | null }[];
  };
  return {
    nodes: json.results.map((x) => ({ uniqueId: x.unique_id, status: x.status, failures: x.failures, message: x.message })),
    elapsedSeconds: json.elapsed_time,
  };
}

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function spawnWithTimeout(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/**
 * The whole lifecycle, twice, then the dump. Every step runs whatever the previous one returned
 * (a failed step is reported, not thrown), so a test can say which step broke. `onStep` is called
 * before each step (the reference suite marks its statement log with it).
 */
export async function runDbtLifecycle(
  conn: DbtConnection,
  opts: { onStep?: (pass: DbtPass, command: DbtCommand) => Promise<void> } = {},
): Promise<DbtWritesRun> {
  const project = new DbtProject();
  try {
    const steps: DbtStep[] = [];
    for (const pass of [1, 2] as const) {
      for (const command of DBT_LIFECYCLE) {
        await opts.onStep?.(pass, command);
        steps.push(await project.dbt(conn, pass, command));
      }
    }
    return { steps, dump: await dumpSchema(conn) };
  } finally {
    project.remove();
  }
}

const RELATION_KINDS: Record<string, string> = { r: 'table', p: 'table', v: 'view', m: 'materialized view', f: 'foreign table' };

/** Every relation of the schema as the given user sees it (the user dbt ran as). */
export async function dumpSchema(conn: DbtConnection, schema = DBT_WRITES_SCHEMA): Promise<RelationDump[]> {
  const c = new pg.Client({
    host: conn.host,
    port: conn.port,
    user: conn.user,
    password: conn.password,
    database: conn.dbname,
    connectionTimeoutMillis: 10000,
    query_timeout: 60000,
    // PostgreSQL's text for every value: no parsing on the client
    types: { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig,
  });
  c.on('error', () => {});
  await c.connect();
  try {
    const relations = await c.query<{ relname: string; relkind: string; comment: string | null }>(
      `select c.relname, c.relkind, obj_description(c.oid, 'pg_class') as comment
         from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f')
        order by c.relname`,
      [schema],
    );
    const dump: RelationDump[] = [];
    for (const rel of relations.rows) {
      const columns = await c.query<{ attname: string; type: string; comment: string | null }>(
        `select a.attname, format_type(a.atttypid, a.atttypmod) as type, col_description(a.attrelid, a.attnum) as comment
           from pg_catalog.pg_attribute a
           join pg_catalog.pg_class c on c.oid = a.attrelid
           join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          where n.nspname = $1 and c.relname = $2 and a.attnum > 0 and not a.attisdropped
          order by a.attnum`,
        [schema, rel.relname],
      );
      const data = await c.query<(string | null)[]>({ text: `select * from ${quoteIdent(schema)}.${quoteIdent(rel.relname)}`, rowMode: 'array' });
      const names = data.fields.map((f) => f.name);
      dump.push({
        name: rel.relname,
        kind: RELATION_KINDS[rel.relkind] ?? rel.relkind,
        comment: rel.comment,
        columns: columns.rows.map((x) => ({ name: x.attname, type: x.type, comment: x.comment })),
        rows: sortRows(replaceNowDerived(rel.relname, names, data.rows)),
      });
    }
    return dump;
  } finally {
    await c.end();
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** See NOW_DERIVED. */
export function replaceNowDerived(relation: string, names: readonly string[], rows: (string | null)[][]): (string | null)[][] {
  const spec = NOW_DERIVED[relation];
  if (!spec) return rows;
  const clockAt = names.flatMap((n, i) => (spec.clock.includes(n) ? [i] : []));
  const hashAt = new Set(names.flatMap((n, i) => (spec.hashed.includes(n) ? [i] : [])));
  // PostgreSQL's timestamp text sorts as the time it names (fixed-width ISO, no zone)
  const clocks = [...new Set(rows.flatMap((r) => clockAt.map((i) => r[i]).filter((v): v is string => v !== null)))].sort();
  const rank = new Map(clocks.map((v, k) => [v, `now()#${k + 1}`]));
  return rows.map((r) =>
    r.map((v, i) => {
      if (v === null) return null;
      if (hashAt.has(i)) return 'md5(now())';
      return clockAt.includes(i) ? rank.get(v)! : v;
    }),
  );
}

/** Rows ordered column by column, NULL first, text by UTF-16 code units (no locale). */
export function sortRows(rows: (string | null)[][]): (string | null)[][] {
  const cmp = (a: (string | null)[], b: (string | null)[]): number => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const x = a[i] ?? null;
      const y = b[i] ?? null;
      if (x === y) continue;
      if (x === null) return -1;
      if (y === null) return 1;
      return x < y ? -1 : 1;
    }
    return 0;
  };
  return [...rows].sort(cmp);
}

/** The records of a CSV text (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes). */
export function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** A CSV file as dbt's seeds read it, each row keyed by the header. */
export function parseCsv(text: string): Record<string, string>[] {
  const [header, ...body] = csvRecords(text);
  if (!header) return [];
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

export function readSeed(name: string): Record<string, string>[] {
  return parseCsv(fs.readFileSync(path.join(DBT_WRITES_PROJECT, 'seeds', `${name}.csv`), 'utf8'));
}

export interface ReferenceDemo {
  server: RealPostgres;
  /** bob (roles analyst and engineer), as in `lakegate demo` */
  engineer: DbtConnection;
  /** The csvlog of every statement, when started with statementLog. */
  statementLogFile: string | null;
  /** A superuser session in database demo (marks the statement log, inspects). */
  admin: pg.Client;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL 15 holding what `lakegate demo` holds: its users (with their passwords, though
 * the test server trusts loopback), database `demo`, `sales.orders` with the demo's two rows, role
 * analyst reading sales, and role engineer (bob, carol) allowed to create schemas in demo, as the
 * demo's namespace analytics allows engineers to create and write (analyticsSchema: that schema
 * made already, as the demo has it). statementLog turns on
 * log_statement = 'all' into a csvlog (one record per message, multi-line statements intact).
 */
export async function startReferenceDemo(opts: { statementLog?: boolean; analyticsSchema?: boolean } = {}): Promise<ReferenceDemo> {
  const server = await startPostgres({
    settings: opts.statementLog
      ? [
          'logging_collector = on',
          "log_destination = 'csvlog'",
          "log_directory = 'statement-log'",
          "log_filename = 'statements'",
          "log_statement = 'all'",
          'log_rotation_size = 0',
        ]
      : [],
  });
  try {
    const root = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database: 'postgres' });
    await root.connect();
    try {
      for (const u of ['alice', 'bob', 'carol', 'dave', 'erin']) await root.query(`create role ${u} login password '${u}'`);
      await root.query('create role analyst');
      await root.query('create role engineer');
      await root.query('grant analyst to alice, bob, carol, erin');
      await root.query('grant engineer to bob, carol');
      await root.query('create database demo');
    } finally {
      await root.end();
    }
    const admin = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database: 'demo' });
    admin.on('error', () => {});
    await admin.connect();
    await admin.query('create schema sales');
    await admin.query('create table sales.orders (id integer, ssn text, amount numeric(10,2), region text)');
    for (const o of ORDERS) {
      await admin.query('insert into sales.orders values ($1, $2, $3, $4)', [o.id, o.ssn, o.amount, o.region]);
    }
    await admin.query('grant usage on schema sales to analyst');
    await admin.query('grant select on all tables in schema sales to analyst');
    await admin.query('grant create on database demo to engineer');
    if (opts.analyticsSchema) {
      // the demo's schema analytics made beforehand: engineers create and write there, analysts read what bob makes
      await admin.query('create schema analytics');
      await admin.query('grant usage on schema analytics to analyst, engineer');
      await admin.query('grant create on schema analytics to engineer');
      await admin.query('alter default privileges for role bob in schema analytics grant select on tables to analyst');
    }
    let statementLogFile: string | null = null;
    if (opts.statementLog) {
      const dataDir = (await admin.query<{ data_directory: string }>('show data_directory')).rows[0]!.data_directory;
      statementLogFile = path.join(dataDir, 'statement-log', 'statements.csv');
    }
    return {
      server,
      engineer: { host: server.host, port: server.port, user: 'bob', password: 'bob', dbname: 'demo' },
      statementLogFile,
      admin,
      async stop() {
        await admin.end().catch(() => {});
        await server.stop();
      },
    };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/** One record of PostgreSQL 15's csvlog (the columns this harness reads). */
export interface LoggedStatement {
  time: string;
  user: string;
  pid: string;
  sessionLine: number;
  severity: string;
  message: string;
  applicationName: string;
}

export function readStatementLog(file: string): LoggedStatement[] {
  const records = csvRecords(fs.readFileSync(file, 'utf8'));
  // PostgreSQL 15 csvlog: log_time, user_name, database_name, process_id, connection_from,
  // session_id, session_line_num, command_tag, session_start_time, virtual_transaction_id,
  // transaction_id, error_severity, sql_state_code, message, …, application_name (22)
  return records.map((r) => ({
    time: r[0] ?? '',
    user: r[1] ?? '',
    pid: r[3] ?? '',
    sessionLine: Number(r[6] ?? 0),
    severity: r[11] ?? '',
    message: r[13] ?? '',
    applicationName: r[22] ?? '',
  }));
}

/** The marker a suite sends (as superuser) before each step, so the statement log can be split by step. */
export function stepMarker(pass: DbtPass, command: DbtCommand): string {
  return `select 'pass ${pass}: dbt ${command}' as dbt_writes_step`;
}

/** How one message from dbt arrived: the Query message's text (simple protocol) or an Execute (extended). */
export interface DbtMessage {
  protocol: 'simple' | 'extended';
  /** dbt's query comment (`/* {"app": "dbt", …, "node_id": …} *\/`): the node or connection that sent it */
  sender: string;
  /** the message without dbt's query comment */
  text: string;
  pid: string;
}

/** The messages dbt (application_name 'dbt') sent, split by the step markers. */
export function dbtMessagesByStep(log: LoggedStatement[]): { step: string; messages: DbtMessage[] }[] {
  const steps: { step: string; messages: DbtMessage[] }[] = [];
  for (const e of log) {
    const marker = /'(pass \d: dbt [a-z ]+)' as dbt_writes_step/.exec(e.message);
    if (marker && e.applicationName !== 'dbt') {
      steps.push({ step: marker[1]!, messages: [] });
      continue;
    }
    if (e.applicationName !== 'dbt' || steps.length === 0) continue;
    const simple = /^statement: ([\s\S]*)$/.exec(e.message);
    const extended = /^execute [^:]*: ([\s\S]*)$/.exec(e.message);
    if (!simple && !extended) continue; // not a statement record (an error, a notice)
    let text = (simple ?? extended)![1]!;
    let sender = '';
    const comment = /^\s*\/\* (\{.*?\}) \*\//.exec(text);
    if (comment) {
      const meta = JSON.parse(comment[1]!) as { node_id?: string; connection_name?: string };
      sender = meta.node_id ?? meta.connection_name ?? '';
      text = text.slice(comment[0].length);
    }
    steps[steps.length - 1]!.messages.push({ protocol: simple ? 'simple' : 'extended', sender, text, pid: e.pid });
  }
  return steps;
}

/** The statement log as readable text: per step, each message with its session, protocol and sender, blank lines dropped. */
export function formatStatementLog(log: LoggedStatement[]): string {
  const out: string[] = [];
  for (const { step, messages } of dbtMessagesByStep(log)) {
    out.push(`\n######## ${step}`);
    for (const m of messages) {
      const lines = m.text.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim() !== '');
      const indent = lines.length === 0 ? 0 : Math.min(...lines.map((l) => l.length - l.trimStart().length));
      out.push(`-- session ${m.pid}, ${m.protocol} query${m.sender ? `, ${m.sender}` : ''}`);
      out.push(...lines.map((l) => l.slice(indent)));
    }
  }
  return out.join('\n') + '\n';
}
