/** Helpers shared by the client suites: node-postgres configs, error capture, spawning with a timeout. */
import { spawn } from 'node:child_process';
import net from 'node:net';
import pg from 'pg';
import type { Target } from './target.js';

export function pgConfig(t: Pick<Target, 'host' | 'port'>, over: Partial<pg.ClientConfig> = {}): pg.ClientConfig {
  return {
    host: t.host,
    port: t.port,
    user: 'alice',
    password: 'alice',
    database: 'demo',
    connectionTimeoutMillis: 10000,
    query_timeout: 20000,
    ...over,
  };
}

export async function connect(t: Pick<Target, 'host' | 'port'>, over: Partial<pg.ClientConfig> = {}): Promise<pg.Client> {
  const c = new pg.Client(pgConfig(t, over));
  // a server that drops the socket must fail the test, not crash the worker
  c.on('error', () => {});
  await c.connect();
  return c;
}

/**
 * node-postgres connecting from a chosen loopback source address (127.0.0.x on
 * Linux), so a test can play clients on different addresses:
 * `connect(t, { stream: fromAddress('127.0.0.2') })`.
 */
export function fromAddress(localAddress: string): () => net.Socket {
  return () => {
    const socket = new net.Socket();
    const connect = socket.connect.bind(socket) as (options: net.TcpSocketConnectOpts) => net.Socket;
    // node-postgres calls connect(port, host); the source address goes in as an option
    (socket as unknown as { connect: (port: number, host: string) => net.Socket }).connect = (port, host) => connect({ port, host, localAddress });
    return socket;
  };
}

export interface PgError extends Error {
  code?: string;
  position?: string;
  severity?: string;
}

/** Resolve with the rejection of `p`; fail if it resolves. */
export async function rejection(p: Promise<unknown>): Promise<PgError> {
  try {
    const v = await p;
    throw new Error(`expected an error, got ${JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? String(x) : x))}`);
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('expected an error, got')) throw e;
    return e as PgError;
  }
}

/** Raw text as the server sent it: no type parsing on the client. */
export const rawTypes = { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig;

export interface RunResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Spawn a process with a hard timeout (SIGKILL), collecting its output. */
export function run(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; input?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 30000);
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A query that runs for minutes on PostgreSQL and on DuckDB alike (1e10 joined rows that
 * must each be filtered), used for cancel / statement_timeout. Bounded (about a minute on
 * DuckDB on 2 cores) so a server that cannot interrupt it does not hang the suite.
 * The same text is in java/JdbcChecks.java and python/test_psycopg2.py.
 */
export const LONG_QUERY =
  'SELECT count(*) FROM generate_series(1, 100000) a(a) CROSS JOIN generate_series(1, 100000) b(b) WHERE (a.a + b.b) % 7 = 3';

/** The environment psql runs with against a server: its own HOME, a UTF-8 C locale, libpq's connection variables, database `demo`. */
export function psqlEnv(home: string, host: string, port: number, user: string, password: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    HOME: home,
    LC_ALL: 'C.UTF-8',
    PGHOST: host,
    PGPORT: String(port),
    PGUSER: user,
    PGPASSWORD: password,
    PGDATABASE: 'demo',
    PGCONNECT_TIMEOUT: '10',
    ...extra,
  };
}
