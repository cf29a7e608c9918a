/**
 * The session functions' answers, computed from the session's own state:
 * pg_sleep, set_config, txid_current, pg_cancel_backend and
 * pg_terminate_backend. Which SELECTs are such calls is read from the tree
 * in sql/sessionCalls.ts.
 */
import * as be from '../protocol/backend.js';
import { PgError, SqlState } from '../protocol/errors.js';
import type { MessageWriter } from '../protocol/writer.js';
import type { BackendActivity } from '../pgcatalog/pgCatalogTables.js';
import type { SessionCall, SessionFunction } from '../sql/sessionCalls.js';
import type { PgField } from './rows/api.js';
import { settingDef, type SessionSettings } from './settings.js';

const RESULT_TYPES: Record<SessionFunction, { typeOid: number; typeLen: number }> = {
  pg_sleep: { typeOid: 2278, typeLen: 4 }, // void
  set_config: { typeOid: 25, typeLen: -1 },
  txid_current: { typeOid: 20, typeLen: 8 },
  pg_cancel_backend: { typeOid: 16, typeLen: 1 },
  pg_terminate_backend: { typeOid: 16, typeLen: 1 },
};

/** Each function's argument types (OIDs), as ParameterDescription reports a `$n` in that place. */
const ARG_TYPES: Record<SessionFunction, number[]> = {
  pg_sleep: [701],
  set_config: [25, 25, 16],
  txid_current: [],
  pg_cancel_backend: [23],
  pg_terminate_backend: [23, 20],
};

export function sessionCallFields(calls: SessionCall[]): PgField[] {
  return calls.map((c) => ({ name: c.column, tableOid: 0, columnAttr: 0, typeMod: -1, format: 0, ...RESULT_TYPES[c.fn] }));
}

/** The parameter types of a statement of session calls: the client's, else the argument's type. */
export function sessionParamOids(calls: SessionCall[], clientOids: number[]): number[] {
  const inferred = new Map<number, number>();
  for (const c of calls) {
    c.args.forEach((a, i) => {
      if (a !== null && typeof a === 'object' && !inferred.has(a.param)) inferred.set(a.param, ARG_TYPES[c.fn][i] ?? 25);
    });
  }
  const n = Math.max(0, clientOids.length, ...inferred.keys());
  return Array.from({ length: n }, (_, i) => {
    const oid = clientOids[i] || inferred.get(i + 1);
    if (!oid) throw new PgError(SqlState.indeterminateDatatype, `could not determine data type of parameter $${i + 1}`);
    return oid;
  });
}

function paramText(raw: Buffer, format: number, oid: number): string {
  if (format === 0) return raw.toString('utf8');
  switch (oid) {
    case 16:
      return raw[0] ? 'true' : 'false';
    case 21:
      return String(raw.readInt16BE(0));
    case 23:
      return String(raw.readInt32BE(0));
    case 20:
      return String(raw.readBigInt64BE(0));
    case 700:
      return String(raw.readFloatBE(0));
    case 701:
      return String(raw.readDoubleBE(0));
    case 25:
    case 1043:
    case 19:
      return raw.toString('utf8');
    default:
      throw PgError.featureNotSupported(`binary parameters of type ${oid} are not supported for session functions`);
  }
}

/** The calls with their parameters bound (text or binary, as Bind sent them). */
export function bindSessionCalls(calls: SessionCall[], bind: { params: (Buffer | null)[]; paramFormats: number[] } | undefined, oids: number[]): SessionCall[] {
  return calls.map((c) => ({
    ...c,
    args: c.args.map((a) => {
      if (a === null || typeof a !== 'object') return a;
      const raw = bind?.params[a.param - 1];
      if (raw === undefined) throw new PgError(SqlState.undefinedParameter, `there is no parameter $${a.param}`);
      if (raw === null) return null;
      const format = (bind!.paramFormats.length === 1 ? bind!.paramFormats[0] : bind!.paramFormats[a.param - 1]) ?? 0;
      return paramText(raw, format, oids[a.param - 1] ?? 25);
    }),
  }));
}

/** PostgreSQL's argument checks: the count, and the message for a call that matches no signature. */
export function checkArity(call: SessionCall): void {
  const arity: Record<SessionFunction, number[]> = {
    pg_sleep: [1],
    set_config: [3],
    txid_current: [0],
    pg_cancel_backend: [1],
    pg_terminate_backend: [1, 2],
  };
  if (!arity[call.fn].includes(call.args.length)) {
    throw new PgError(SqlState.undefinedFunction, `function ${call.fn}(${call.args.map(() => 'unknown').join(', ')}) does not exist`, {
      hint: 'No function matches the given name and argument types. You might need to add explicit type casts.',
    });
  }
}

export function numberArg(value: string | null, type: 'double precision' | 'integer' | 'bigint'): number | null {
  if (value === null) return null;
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n) || (type !== 'double precision' && !Number.isInteger(n))) {
    throw new PgError(SqlState.invalidTextRepresentation, `invalid input syntax for type ${type}: "${value}"`);
  }
  if (type === 'integer' && (n < -2147483648 || n > 2147483647)) {
    throw new PgError(SqlState.numericValueOutOfRange, `value "${value}" is out of range for type integer`);
  }
  return n;
}

/** Sleep without holding the event loop; the statement's stop (timeout, cancel, hang-up) ends it early. */
export function sleep(seconds: number, signal: AbortSignal): Promise<void> {
  if (!(seconds > 0)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    // setTimeout's limit is 2^31-1 ms; a longer sleep is a chain of them.
    const ms = Math.min(seconds * 1000, 2147483647);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      if (seconds * 1000 > ms) sleep(seconds - ms / 1000, signal).then(resolve, reject);
      else resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

let lastTxid = 1000;
/** A transaction id for txid_current(): increasing across the gateway, as PostgreSQL's are. */
export const nextTxid = (): number => ++lastTxid;

/** What a session may do to another one of the gateway (pg_cancel_backend, pg_terminate_backend). */
export interface Backends {
  /** The session with this pid, with who owns it; undefined when there is none. */
  find(pid: number): { user: string; cancel(): void; terminate(): void } | undefined;
  /** The sessions of this user as pg_stat_activity shows them (nobody else's). */
  activity(user: string): BackendActivity[];
}

export function signalBackend(backends: Backends, caller: string, pid: number, kind: 'cancel' | 'terminate'): { ok: boolean; warning?: string } {
  const target = backends.find(pid);
  if (!target) return { ok: false, warning: `PID ${pid} is not a PostgreSQL backend process` };
  if (target.user !== caller) {
    // PostgreSQL 16's words (lakegate reports server_version 16).
    throw kind === 'cancel'
      ? new PgError(SqlState.insufficientPrivilege, 'permission denied to cancel query', {
          detail: 'Only roles with privileges of the role whose query is being canceled or with privileges of the "pg_signal_backend" role may cancel this query.',
        })
      : new PgError(SqlState.insufficientPrivilege, 'permission denied to terminate process', {
          detail: 'Only roles with privileges of the role whose process is being terminated or with privileges of the "pg_signal_backend" role may terminate this process.',
        });
  }
  if (kind === 'cancel') target.cancel();
  else target.terminate();
  return { ok: true };
}

/** What a call may read and change of its session. */
export interface CallContext {
  settings: SessionSettings;
  inBlock: boolean;
  user: string;
  backends: Backends;
  /** The statement's stop (timeout, cancel, hang-up). */
  signal: AbortSignal;
  /** txid_current() of the current block, assigned at its first call. */
  blockTxid(): number;
  /** ParameterStatus and warnings go here, before the row. */
  writer: MessageWriter;
}

/** One call's text value (null for SQL NULL). */
export async function callSessionFunction(call: SessionCall, ctx: CallContext): Promise<string | null> {
  if (call.args.some((x) => x !== null && typeof x === 'object')) throw new PgError(SqlState.internalError, 'unbound parameter');
  const [a, b, c] = call.args as (string | null)[];
  switch (call.fn) {
    case 'pg_sleep': {
      const seconds = numberArg(a ?? null, 'double precision');
      if (seconds !== null) await sleep(seconds, ctx.signal);
      return seconds === null ? null : '';
    }
    case 'txid_current':
      return String(ctx.inBlock ? ctx.blockTxid() : nextTxid());
    case 'set_config': {
      if (a === null || a === undefined) throw new PgError(SqlState.nullValueNotAllowed, 'SET requires parameter name');
      const local = c !== null && c !== undefined && ['t', 'true', 'on', 'yes', '1'].includes(c.toLowerCase());
      const def = settingDef(a);
      if (local && !ctx.inBlock) {
        // Local to a transaction that ends with this statement: checked, then gone.
        return b === null || b === undefined ? ctx.settings.get(def.name) : def.check ? def.check(b) : b;
      }
      const changed =
        b === null || b === undefined
          ? ctx.settings.reset(def.name)
          : [ctx.settings.set(def.name, b, local)].filter((n): n is string => n !== null);
      for (const name of changed) be.parameterStatus(ctx.writer, name, ctx.settings.get(name));
      return ctx.settings.get(def.name);
    }
    case 'pg_cancel_backend':
    case 'pg_terminate_backend': {
      const pid = numberArg(a ?? null, 'integer');
      if (pid === null) return null;
      if (call.fn === 'pg_terminate_backend' && b !== undefined && b !== null && Number(b) < 0) {
        throw new PgError(SqlState.invalidParameterValue, '"timeout" must not be negative');
      }
      const outcome = signalBackend(ctx.backends, ctx.user, pid, call.fn === 'pg_cancel_backend' ? 'cancel' : 'terminate');
      if (outcome.warning) be.noticeResponse(ctx.writer, { severity: 'WARNING', code: '01000', message: outcome.warning });
      return outcome.ok ? 't' : 'f';
    }
  }
}
