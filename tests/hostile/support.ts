/**
 * Shared by the hostile-input suites: clients for a served gateway, error
 * capture, and the check every error a hostile client provokes must pass —
 * a PostgreSQL SQLSTATE and nothing of lakegate's insides in the text.
 */
import pg from 'pg';
import { startServe, type ServedGateway } from '../support/lakegateServe.js';
import { startPostgres, type RealPostgres } from '../support/realPostgres.js';

export interface CapturedError {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
  severity?: string;
}

export function client(g: { host: string; port: number }, user = 'alice', extra: Partial<pg.ClientConfig> = {}): pg.Client {
  return new pg.Client({ host: g.host, port: g.port, user, password: user, database: 'demo', ...extra });
}

export async function connected(g: { host: string; port: number }, user = 'alice', extra: Partial<pg.ClientConfig> = {}): Promise<pg.Client> {
  const c = client(g, user, extra);
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

/** The error a statement fails with (throws if it succeeds). */
export async function failure(c: pg.Client, sql: string, params?: unknown[]): Promise<CapturedError> {
  try {
    await c.query(sql, params);
  } catch (e) {
    const err = e as CapturedError;
    return { code: err.code, message: err.message, detail: err.detail, hint: err.hint, severity: err.severity };
  }
  throw new Error(`expected an error from: ${sql.slice(0, 200)}`);
}

/** Words that show the machinery behind the wire: DuckDB's error classes and types, JavaScript, our macros and tree paths. */
export const INTERNAL_TEXT =
  /\b(?:Error:|Binder|Catalog Error|Candidate|Did you mean|INT32|INT64|INT16|VARCHAR|STRING_LITERAL|INTEGER_LITERAL|DuckDB|duckdb|RangeError|TypeError|Maximum call stack|undefined|null pointer)\b|lg_[a-z]+|lakegate_pg|\bpgc\.|\/[A-Z][A-Za-z]+Stmt\/|\.js:\d+|\.ts:\d+|at [A-Za-z]+ \(|node v?\d+\.\d+/;

/** Every error a hostile input gets: a SQLSTATE of PostgreSQL's form and a clean text. */
export function expectClean(err: CapturedError): void {
  expect(err.code).toMatch(/^[0-9A-Z]{5}$/);
  expect(err.code).not.toBe('XX000');
  expect(`${err.message}\n${err.detail ?? ''}\n${err.hint ?? ''}`).not.toMatch(INTERNAL_TEXT);
}

/** A bystander session's `select 1` round trip, in ms. */
export async function ping(c: pg.Client): Promise<number> {
  const t = performance.now();
  const r = await c.query('select 1 as one');
  if (r.rows[0]?.one !== 1) throw new Error('bystander got a wrong answer');
  return performance.now() - t;
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wait until `cond` holds, polling; false if it did not within `ms`. */
export async function eventually(cond: () => boolean | Promise<boolean>, ms: number, every = 50): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await cond()) return true;
    await sleep(every);
  }
  return cond();
}

export type Gateway = ServedGateway;

/** A served gateway and the real PostgreSQL it is compared with, each with a logged-in client. */
export interface Pair {
  g: ServedGateway;
  reference: RealPostgres;
  /** alice on the demo database of the gateway */
  ours: pg.Client;
  /** postgres on the reference */
  theirs: pg.Client;
  stop(): Promise<void>;
}

export async function startPair(overrides: Record<string, unknown> = {}): Promise<Pair> {
  const g = await startServe(overrides);
  const reference = await startPostgres();
  const theirs = new pg.Client({ host: reference.host, port: reference.port, user: 'postgres', database: 'postgres' });
  await theirs.connect();
  const ours = await connected(g);
  return {
    g,
    reference,
    ours,
    theirs,
    stop: async () => {
      await ours.end();
      await theirs.end();
      await reference.stop();
      await g.stop();
    },
  };
}
