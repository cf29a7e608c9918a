/**
 * The SQL forms of cursors and prepared statements (DECLARE / FETCH / MOVE /
 * CLOSE, PREPARE / EXECUTE), COPY TO STDOUT and ANALYZE, read from their parse
 * trees into plain descriptions with PostgreSQL's errors. The session runs
 * them (server/sqlCursors.ts, server/session.ts); the query inside each is
 * planned like any other (sql/ + policy/), never sent on as text.
 */
import { SqlError } from './errors.js';
import { parseOne, type ParsedStatement } from './parse.js';
import type { Fields, PgNode } from './walk.js';

/** The SQLSTATEs these statements answer with (sql/ names them itself: it does not import protocol/). */
const STATE = {
  syntaxError: '42601',
  undefinedColumn: '42703',
  undefinedTable: '42P01',
  undefinedObject: '42704',
  insufficientPrivilege: '42501',
  featureNotSupported: '0A000',
  invalidCursorName: '34000',
  objectNotInPrerequisiteState: '55000',
  internalError: 'XX000',
} as const;

const featureNotSupported = (message: string) => new SqlError(STATE.featureNotSupported, message);

// parsenodes.h CURSOR_OPT_*
const CURSOR_BINARY = 0x1;
const CURSOR_SCROLL = 0x2;
const CURSOR_HOLD = 0x20;

export interface CursorDeclaration {
  name: string;
  binary: boolean;
  hold: boolean;
  /** DECLARE … SCROLL: fetched in any direction (its result is spooled into the engine, server/scrollCursor.ts). */
  scroll: boolean;
  query: ParsedStatement;
}

/** The query a statement wraps, as a statement of its own (same text: errors point into it). */
function inner(stmt: ParsedStatement, node: PgNode): ParsedStatement {
  const kind = Object.keys(node)[0]!;
  return { node, kind, text: stmt.text, offset: stmt.offset };
}

export function cursorDeclaration(stmt: ParsedStatement): CursorDeclaration {
  const f = stmt.node['DeclareCursorStmt']!;
  const options = (f['options'] as number | undefined) ?? 0;
  return {
    name: f['portalname'] as string,
    binary: (options & CURSOR_BINARY) !== 0,
    hold: (options & CURSOR_HOLD) !== 0,
    // without SCROLL a cursor scans forward only (PostgreSQL also lets some plans scroll; lakegate never does)
    scroll: (options & CURSOR_SCROLL) !== 0,
    query: inner(stmt, f['query'] as PgNode),
  };
}

export type FetchDirection = 'forward' | 'backward' | 'absolute' | 'relative';

export interface CursorFetch {
  name: string;
  move: boolean;
  /** FORWARD and BACKWARD with a negative count are turned around, as PostgreSQL does. */
  direction: FetchDirection;
  /** Rows for forward/backward (Infinity = ALL), the position for absolute/relative. */
  count: number;
}

/** libpg-query's FETCH_ALL (LONG_MAX in its 32-bit build). */
const FETCH_ALL = 2147483647;

export function cursorFetch(f: Fields): CursorFetch {
  const howMany = (f['howMany'] as number | undefined) ?? 0;
  const move = f['ismove'] === true;
  const name = f['portalname'] as string;
  const raw = String(f['direction'] ?? 'FETCH_FORWARD');
  let direction: FetchDirection =
    raw === 'FETCH_BACKWARD' ? 'backward' : raw === 'FETCH_ABSOLUTE' ? 'absolute' : raw === 'FETCH_RELATIVE' ? 'relative' : 'forward';
  let count = howMany;
  if ((direction === 'forward' || direction === 'backward') && count < 0) {
    direction = direction === 'forward' ? 'backward' : 'forward';
    count = -count;
  }
  if ((direction === 'forward' || direction === 'backward') && count >= FETCH_ALL) count = Infinity;
  return { name, move, direction, count };
}

export const forwardOnly = () =>
  new SqlError(STATE.objectNotInPrerequisiteState, 'cursor can only scan forward', undefined, {
    hint: 'Declare it with SCROLL option to enable backward scan.',
  });

/** Where a cursor without SCROLL is: rows consumed, and whether a fetch already came up short. */
export interface ForwardState {
  pos: number;
  atEnd: boolean;
}

/** What a FETCH / MOVE does on a cursor without SCROLL: rows to pass over, then rows to take (Infinity = all). */
export interface ForwardStep {
  skip: number;
  take: number;
  /** FETCH 0 / MOVE 0 (re-fetch the current row): the tag counts whether the cursor is on a row */
  current?: boolean;
}

/**
 * A cursor without SCROLL moves forward only, as PostgreSQL's NO SCROLL cursor
 * (DoPortalRunFetch): ABSOLUTE and RELATIVE that lie ahead pass over rows and take one;
 * whatever would have to go back or rewind is 55000 "cursor can only scan forward".
 * (PostgreSQL lets a cursor declared without either option scroll when its plan can;
 * lakegate treats it as NO SCROLL.)
 */
export function forwardStep(f: CursorFetch, st: ForwardState): ForwardStep {
  const onRow = st.pos > 0 && !st.atEnd;
  const current = (): ForwardStep => {
    // FETCH 0 re-reads the current row by stepping back; MOVE 0 only reports whether there is one
    if (onRow && !f.move) throw forwardOnly();
    return { skip: 0, take: 0, current: onRow };
  };
  switch (f.direction) {
    case 'forward':
      return f.count === 0 ? current() : { skip: 0, take: f.count };
    case 'backward':
      // FETCH BACKWARD 0 takes the backward path even off a row; MOVE BACKWARD 0 only reports
      if (f.count === 0 && f.move) return current();
      throw forwardOnly();
    case 'relative':
      if (f.count === 0) return current();
      if (f.count < 0) throw forwardOnly();
      return { skip: f.count - 1, take: 1 };
    case 'absolute': {
      const atStart = st.pos === 0 && !st.atEnd;
      if (f.count < 0) throw forwardOnly();
      // a target in the first half of what was read is reached by a rewind, which only a cursor at its start may do
      if (f.count === 0 || f.count - 1 <= Math.floor(st.pos / 2)) {
        if (!atStart) throw forwardOnly();
        return f.count === 0 ? { skip: 0, take: 0 } : { skip: f.count - 1, take: 1 };
      }
      const pos = st.pos + (st.atEnd ? 1 : 0);
      if (f.count <= pos) throw forwardOnly();
      return { skip: f.count - pos - 1, take: 1 };
    }
  }
}

export const noSuchCursor = (name: string) => new SqlError(STATE.invalidCursorName, `cursor "${name}" does not exist`);

/** COPY TO STDOUT's query (COPY FROM a file or a program refused in PostgreSQL's words): `COPY (query)` as is, `COPY table [(columns)]` as `SELECT columns FROM table`. */
export function copySource(stmt: ParsedStatement): { query: ParsedStatement; options: PgNode[] | undefined } {
  const f = stmt.node['CopyStmt']!;
  if (f['is_from']) {
    if (f['is_program']) throw programCopy();
    if (f['filename']) {
      throw new SqlError(STATE.insufficientPrivilege, 'must be superuser or have privileges of the pg_read_server_files role to COPY from a file', undefined, {
        hint: "Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.",
      });
    }
    // COPY FROM STDIN is a write (server/copyIn/), not a query
    throw new SqlError(STATE.internalError, 'COPY FROM STDIN has no query');
  }
  if (f['is_program']) throw programCopy();
  if (f['filename']) {
    throw new SqlError(STATE.insufficientPrivilege, 'must be superuser or have privileges of the pg_write_server_files role to COPY to a file', undefined, {
      hint: "Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.",
    });
  }
  if (f['whereClause']) throw featureNotSupported('WHERE clause not allowed with COPY TO');
  const options = f['options'] as PgNode[] | undefined;
  if (f['query']) {
    const q = inner(stmt, f['query'] as PgNode);
    if (q.kind !== 'SelectStmt') throw featureNotSupported(`COPY (${q.kind.replace(/Stmt$/, '').toUpperCase()}) TO is not supported by lakegate`);
    return { query: q, options };
  }
  const attlist = (f['attlist'] as PgNode[] | undefined) ?? [];
  const targetList = attlist.length
    ? attlist.map((a) => ({ ResTarget: { val: { ColumnRef: { fields: [{ String: { sval: a['String']!['sval'] } }] } } } }))
    : [{ ResTarget: { val: { ColumnRef: { fields: [{ A_Star: {} }] } } } }];
  const select = {
    SelectStmt: { targetList, fromClause: [{ RangeVar: f['relation'] }], limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' },
  } as unknown as PgNode;
  return { query: inner(stmt, select), options };
}

const programCopy = () =>
  new SqlError(STATE.insufficientPrivilege, 'must be superuser or have privileges of the pg_execute_server_program role to COPY to or from an external program', undefined, {
    hint: "Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.",
  });

/** Parameter type names PREPARE accepts, as the parser spells them, to their OIDs. */
const TYPE_OIDS: Record<string, number> = {
  bool: 16, bytea: 17, int8: 20, int2: 21, int4: 23, text: 25, json: 114, float4: 700, float8: 701,
  varchar: 1043, bpchar: 1042, date: 1082, time: 1083, timestamp: 1114, timestamptz: 1184, interval: 1186,
  numeric: 1700, uuid: 2950, jsonb: 3802,
};

export interface Preparation {
  name: string;
  paramOids: number[];
  query: ParsedStatement;
}

export function preparation(stmt: ParsedStatement): Preparation {
  const f = stmt.node['PrepareStmt']!;
  const paramOids = ((f['argtypes'] as PgNode[] | undefined) ?? []).map((t) => {
    const tn = t['TypeName']!;
    const names = (tn['names'] as PgNode[]).map((n) => String(n['String']?.['sval']));
    if (tn['arrayBounds']) throw featureNotSupported('array parameters in PREPARE are not supported by lakegate');
    const name = names[names.length - 1]!;
    const oid = (names.length === 1 || names[0] === 'pg_catalog') ? TYPE_OIDS[name] : undefined;
    if (oid === undefined) throw new SqlError(STATE.undefinedObject, `type "${names.join('.')}" does not exist`);
    return oid;
  });
  return { name: f['name'] as string, paramOids, query: inner(stmt, f['query'] as PgNode) };
}

/**
 * EXECUTE's arguments as text parameters. PostgreSQL evaluates any
 * expression; lakegate takes constants (optionally cast), which is what
 * clients send.
 */
export function executeArguments(f: Fields): { name: string; params: (Buffer | null)[] } {
  const params = ((f['params'] as PgNode[] | undefined) ?? []).map((p) => {
    const text = constantValue(p);
    if (text === undefined) throw featureNotSupported('EXECUTE arguments must be constants in lakegate');
    return text === null ? null : Buffer.from(text, 'utf8');
  });
  return { name: f['name'] as string, params };
}

/** A constant's text (optionally cast, or negated), null for NULL; undefined when the node is not a constant. */
export function constantValue(node: PgNode): string | null | undefined {
  const c = node['A_Const'];
  if (c) {
    if (c['isnull']) return null;
    if (c['sval']) return String(c['sval']['sval'] ?? '');
    if (c['ival']) return String(c['ival']['ival'] ?? 0);
    if (c['fval']) return String(c['fval']['fval']);
    if (c['boolval']) return c['boolval']['boolval'] ? 'true' : 'false';
    if (c['bsval']) return undefined;
    return '0';
  }
  if (node['TypeCast']?.['arg']) return constantValue(node['TypeCast']['arg'] as PgNode);
  const e = node['A_Expr'];
  if (e && e['kind'] === 'AEXPR_OP' && !e['lexpr'] && (e['name'] as PgNode[])?.[0]?.['String']?.['sval'] === '-') {
    const v = constantValue(e['rexpr'] as PgNode);
    return typeof v === 'string' && /^[0-9.]/.test(v) ? `-${v}` : undefined;
  }
  return undefined;
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * ANALYZE [t [(columns)], …]: one empty query per table, planned as the user, so a table the user may not
 * load is 42P01 and a missing column 42703, as PostgreSQL answers; nothing is gathered (a no-op, tag ANALYZE).
 */
export interface AnalyzeProbe {
  query: ParsedStatement;
  /** the relation's name as written, the last part (PostgreSQL's "column … of relation …") */
  relation: string;
}

export function analyzeProbes(stmt: ParsedStatement): AnalyzeProbe[] {
  const rels = (stmt.node['VacuumStmt']?.['rels'] as PgNode[] | undefined) ?? [];
  return rels.map((r) => {
    const f = (r as Fields)['VacuumRelation'] as Fields;
    const rel = f['relation'] as Fields;
    const name = [rel['catalogname'], rel['schemaname'], rel['relname']].filter((p): p is string => typeof p === 'string').map(quoteIdent).join('.');
    const columns = ((f['va_cols'] as Fields[] | undefined) ?? []).map((c) => quoteIdent(String((c['String'] as Fields)['sval'])));
    const text = `SELECT ${columns.length > 0 ? columns.join(', ') : '*'} FROM ${name} LIMIT 0`;
    const query = parseOne(text);
    if (!query) throw new SqlError(STATE.syntaxError, 'syntax error');
    return { query, relation: String(rel['relname']) };
  });
}

/**
 * A probe's error as ANALYZE reports it: PostgreSQL names the relation of a missing column and points at
 * nothing (the probe's positions are in a text the user never wrote).
 */
export function analyzeFailure(e: unknown, probe: AnalyzeProbe): unknown {
  const err = e as { code?: unknown; message?: unknown };
  if (typeof err?.message !== 'string') return e;
  // the planner's 42703, or the engine's own words for it (mapped to 42703 only later, server/errors.ts)
  const column = err.code === STATE.undefinedColumn ? /^column "(.*)" does not exist$/.exec(err.message) : /^Binder Error: Referenced column "([^"]+)" (?:was )?not found/.exec(err.message);
  if (column) {
    return new SqlError(STATE.undefinedColumn, `column "${column[1]}" of relation "${probe.relation}" does not exist`);
  }
  if (err.code === STATE.undefinedTable) return new SqlError(STATE.undefinedTable, err.message);
  return e;
}
