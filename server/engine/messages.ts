/**
 * The requests the gateway sends an engine process and what it answers.
 * Every request carries an id; the answer carries it back. Handles
 * (connections, prepared statements, results) are numbers the engine
 * process hands out; they mean nothing to another engine process.
 */
import type { FormatContext } from '../rows/api.js';
import type { PresentedAs } from '../../sql/pgTypes.js';
import type { WireError, WireParam, WireType } from './wire.js';

/** How an engine process starts: its DuckDB instance, made and locked down before it answers anything else. */
export interface EngineStart {
  /** DuckDB configuration given at creation (threads, memory_limit, temp_directory …). */
  config: Record<string, string>;
  /** Extensions LOADed on the privileged connection before the lock-down. */
  extensions: string[];
  /** DuckDB database files attached read-only, by PostgreSQL database name. */
  databases: Record<string, string>;
  /** Statements run on the privileged connection before the lock-down (the catalog emulation, macros). */
  bootstrap: string[];
  /**
   * The only directories (or object-store prefixes) the engine may read once
   * locked. Leave the instance unlocked (`null`) only to record a bootstrap.
   */
  allowedDirectories: string[] | null;
}

/** How a result's rows are written: the portal's formats and the session's settings. */
export interface Encoding {
  /** Columns sent: the first `columns` of the result (a zero-column SELECT selects one constant that is not sent). */
  columns: number;
  formats: (0 | 1)[];
  ctx: FormatContext;
  maxRowBytes: number;
  presented: (PresentedAs | undefined)[];
}

export interface PreparedInfo {
  stmt: number;
  /** Parameter types, 1-based as DuckDB numbers them (index 0 unused); null where the engine could not type one. */
  params: (WireType | null)[];
  columns: { name: string; type: WireType | null }[];
}

/** Encoded DataRows (or, skipping, only counted rows) of one fetch. */
export interface Batch {
  data: Uint8Array | null;
  rows: number;
  /** The result has no more rows (the engine process has let it go). */
  done: boolean;
}

export type Request =
  | { op: 'start'; start: EngineStart }
  | { op: 'lock'; allowedDirectories: string[] }
  | { op: 'connect' }
  | { op: 'disconnect'; conn: number }
  | { op: 'interrupt'; conn: number }
  | { op: 'run'; conn: number; sql: string; params?: WireParam[] }
  | { op: 'rows'; conn: number; sql: string; params?: (string | number | boolean | null)[] }
  | { op: 'prepare'; conn: number; sql: string }
  | { op: 'destroy'; stmt: number }
  /**
   * Start a result: a prepared statement bound to `params`, or `sql` streamed
   * as it is. With `encoding` null the rows are read whole (EXPLAIN). `first`
   * fetches the first batch in the same round trip.
   */
  | { op: 'execute'; conn: number; stmt?: number; sql?: string; params: WireParam[]; encoding: Encoding | null; first?: { maxRows: number; skip: boolean } }
  | { op: 'fetch'; result: number; maxRows: number; skip: boolean }
  | { op: 'reformat'; result: number; encoding: Encoding }
  | { op: 'readAll'; result: number }
  | { op: 'close'; result: number };

export type Answer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: WireError };

/** What each request answers with. */
export interface Answers {
  start: { pid: number };
  lock: null;
  connect: { conn: number };
  disconnect: null;
  interrupt: null;
  run: { changed: number | null };
  rows: Record<string, unknown>[];
  prepare: PreparedInfo;
  destroy: null;
  execute: { result: number; batch: Batch | null };
  fetch: Batch;
  reformat: null;
  readAll: string[][];
  close: null;
}

/** Rows an engine process encodes before it answers a fetch: a batch is about this big, at most. */
export const BATCH_BYTES = 1024 * 1024;
