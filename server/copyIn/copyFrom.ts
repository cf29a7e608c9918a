/**
 * COPY t [(columns)] FROM STDIN: the rows the client streams are written as
 * INSERTs of text values through the write planner, so they pass exactly the
 * gates an INSERT passes (the data gate's `update`, the catalog gate at
 * commit) and each value takes the column's type as an untyped literal does.
 *
 * The target is planned before CopyInResponse, so a user who may not write
 * it, or a table that is not there, is refused before any row is sent (as
 * PostgreSQL checks). Rows go to the engine in batches (bounded in rows and
 * bytes) inside one engine transaction: outside a block the COPY is one
 * Iceberg commit at its end, and an error anywhere commits nothing; inside a
 * block the rows are the block's.
 */
import * as be from '../../protocol/backend.js';
import { PgError, SqlState } from '../../protocol/errors.js';
import type { Output } from '../../protocol/handler.js';
import type { ParsedStatement } from '../../sql/parse.js';
import type { EngineWrite } from '../../sql/write/plan.js';
import type { Fields, PgNode } from '../../sql/walk.js';
import { abortable } from '../../catalog/planSnapshot.js';
import { copyOptions } from '../copyOut.js';
import { toPgError, type ErrorLog } from '../errors.js';
import { plan, type WriteHost } from '../write/statement.js';
import { CopyRowReader, type CopyFormat, type CopyRow } from './rows.js';

/** A batch goes to the engine at this many rows, or this many bytes of input, whichever comes first. */
const BATCH_ROWS = 10_000;
const BATCH_BYTES = 4 * 1024 * 1024;
/** PostgreSQL's MAX_COPY_DATA_DISPLAY: a value or line in CONTEXT is cut to this many bytes. */
const DISPLAY_BYTES = 100;

/** Is this COPY one of COPY FROM STDIN (the form this module takes)? */
export const isCopyFromStdin = (stmt: ParsedStatement): boolean => {
  const f = stmt.node['CopyStmt'];
  return !!f && !!f['is_from'] && !f['is_program'] && !f['filename'];
};

function display(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= DISPLAY_BYTES) return text;
  // cut on a character boundary, as pg_mbcliplen does
  let end = DISPLAY_BYTES;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString('utf8')}...`;
}

const withContext = (e: PgError, where: string): PgError =>
  new PgError(e.code, e.message, { severity: e.severity, detail: e.detail, hint: e.hint, where });

/** The CopyStmt's options as PostgreSQL checks them for COPY FROM, and what lakegate does not take. */
function copyFormat(f: Fields): CopyFormat & { forceNotNull: string[]; forceNull: string[] } {
  const opts = copyOptions(f['options'] as PgNode[] | undefined, true);
  if (opts.format === 'binary') throw PgError.featureNotSupported('COPY FROM STDIN in binary format is not supported by lakegate');
  if (f['whereClause']) throw PgError.featureNotSupported('COPY FROM … WHERE is not supported by lakegate');
  const { format, header, delimiter, nullText, quote, escape, forceNotNull, forceNull } = opts;
  return { format, header, delimiter, nullText, quote, escape, forceNotNull, forceNull };
}

/** INSERT INTO relation (columns) VALUES (…), … as the parser would give it: each field an untyped literal or NULL. */
function insertOf(stmt: ParsedStatement, relation: PgNode, attlist: PgNode[], rows: readonly CopyRow[] | null): ParsedStatement {
  const cols = attlist.map((a) => ({ ResTarget: { name: String(a['String']?.['sval']), location: -1 } }));
  const literal = (v: string | null) => ({ A_Const: v === null ? { isnull: true, location: -1 } : { sval: { sval: v }, location: -1 } });
  // PostgreSQL points at no position in COPY's errors: the relation goes in without its location
  const rel = { ...(relation as Fields) };
  delete rel['location'];
  const ins: Record<string, unknown> = { relation: rel, override: 'OVERRIDING_NOT_SET' };
  if (cols.length) ins['cols'] = cols;
  if (rows) {
    ins['selectStmt'] = {
      SelectStmt: { valuesLists: rows.map((r) => ({ List: { items: r.fields.map(literal) } })), limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' },
    };
  }
  return { node: { InsertStmt: ins } as unknown as PgNode, kind: 'InsertStmt', text: stmt.text, offset: stmt.offset };
}

/**
 * The field an engine conversion error is about: the first field of the
 * batch equal to a value the engine's message quotes. The batch holds only
 * the client's own text (no table is read), so naming it hides nothing.
 */
function failingValue(engineMessage: string, batch: readonly CopyRow[], columns: readonly string[]): { row: CopyRow; column: string; value: string } | null {
  const firstLine = engineMessage.split('\n')[0] ?? '';
  for (const m of firstLine.matchAll(/"([^"]*)"|'([^']*)'/g)) {
    const value = m[1] ?? m[2]!;
    for (const row of batch) {
      const i = row.fields.indexOf(value);
      if (i >= 0) return { row, column: columns[i]!, value };
    }
  }
  return null;
}

export interface CopyFromDeps {
  host: WriteHost;
  onInternalError: ErrorLog;
}

/** Run COPY … FROM STDIN to its CommandComplete (`COPY n`). */
export async function copyFrom(deps: CopyFromDeps, stmt: ParsedStatement, out: Output): Promise<void> {
  const { host } = deps;
  const f = stmt.node['CopyStmt']!;
  if (host.readOnly()) throw new PgError(SqlState.readOnlySqlTransaction, 'cannot execute COPY FROM in a read-only transaction');
  const format = copyFormat(f);
  const relation = f['relation'] as PgNode;
  const relName = String((relation as Fields)['relname']);
  const attlist = (f['attlist'] as PgNode[] | undefined) ?? [];
  // Planned before CopyInResponse: the table, the columns named and the user's right to write are checked first.
  // (a column list takes a row of NULLs: `INSERT … (cols) DEFAULT VALUES` is no statement; the probe is never run)
  const nulls: CopyRow[] | null = attlist.length ? [{ line: 0, raw: '', fields: attlist.map(() => null) }] : null;
  const probe = await plan(host, insertOf(stmt, relation, attlist, nulls));
  const columns = (probe as EngineWrite).columns ?? [];
  const forced = await forcedColumns(host, stmt, relation, format, columns, relName);
  const writes = host.writes();
  const conn = await host.connection();
  // Outside a block the COPY is its own transaction: one commit at its end.
  const own = !host.inBlock();
  if (!writes.inBlock) writes.beginBlock();
  let total = 0;
  try {
    const reader = new CopyRowReader(format);
    let batch: CopyRow[] = [];
    let batchBytes = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const rows = batch;
      batch = [];
      batchBytes = 0;
      total += await writeBatch(deps, stmt, relation, attlist, columns, rows, conn, relName);
    };
    const take = async (rows: CopyRow[]) => {
      for (const row of rows) {
        checkWidth(row, columns, relName);
        forced?.(row);
        batch.push(row);
        batchBytes += row.raw.length;
        if (batch.length >= BATCH_ROWS || batchBytes >= BATCH_BYTES) await flush();
      }
    };
    const chunks = out.copyIn(columns.length)[Symbol.asyncIterator]();
    for (;;) {
      const next = await stoppable(host, chunks.next());
      if (next.done) break;
      await take(lineErrors(reader, relName, () => reader.push(next.value)));
    }
    await take(lineErrors(reader, relName, () => reader.end()));
    await flush();
    host.statement().check();
    if (own) await writes.commit();
  } catch (e) {
    if (own) await writes.rollback();
    throw e;
  }
  be.commandComplete(out.writer, `COPY ${total}`);
}

/** The client's next message, unless the statement is stopped (cancel, statement_timeout) while it is awaited. */
function stoppable<T>(host: WriteHost, next: Promise<T>): Promise<T> {
  const run = host.statement();
  run.check();
  return abortable(next, run.signal);
}

/**
 * FORCE_NOT_NULL / FORCE_NULL (CSV) as PostgreSQL applies them to a row's
 * fields: a NULL becomes the NULL string's text, a quoted NULL string NULL.
 * Each column named must be one the COPY writes (42P10), of the table (42703).
 */
async function forcedColumns(
  host: WriteHost,
  stmt: ParsedStatement,
  relation: PgNode,
  format: ReturnType<typeof copyFormat>,
  columns: readonly string[],
  relName: string,
): Promise<((row: CopyRow) => void) | null> {
  if (format.forceNotNull.length === 0 && format.forceNull.length === 0) return null;
  const all = ((await plan(host, insertOf(stmt, relation, [], null))) as EngineWrite).columns ?? [];
  const positions = (names: string[], option: string) =>
    names.map((name) => {
      if (!all.includes(name)) throw new PgError(SqlState.undefinedColumn, `column "${name}" of relation "${relName}" does not exist`);
      const i = columns.indexOf(name);
      if (i < 0) throw new PgError(SqlState.invalidColumnReference, `${option} column "${name}" not referenced by COPY`);
      return i;
    });
  const notNull = positions(format.forceNotNull, 'FORCE_NOT_NULL');
  const toNull = positions(format.forceNull, 'FORCE_NULL');
  const nullText = format.nullText.toString('utf8');
  return (row) => {
    row.fields.forEach((v, i) => {
      if (v === null && notNull.includes(i)) row.fields[i] = nullText;
      else if (v === nullText && toNull.includes(i)) row.fields[i] = null;
    });
  };
}

/** A malformed record (an unterminated quote, bad UTF-8) with CONTEXT naming its line. */
function lineErrors(reader: CopyRowReader, relName: string, read: () => CopyRow[]): CopyRow[] {
  try {
    return read();
  } catch (e) {
    if (e instanceof PgError && !e.where) throw withContext(e, `COPY ${relName}, line ${reader.lineNumber}`);
    throw e;
  }
}

function checkWidth(row: CopyRow, columns: readonly string[], relName: string): void {
  const where = `COPY ${relName}, line ${row.line}: "${display(row.raw)}"`;
  if (row.fields.length < columns.length) {
    throw new PgError(SqlState.badCopyFileFormat, `missing data for column "${columns[row.fields.length]}"`, { where });
  }
  if (row.fields.length > columns.length) throw new PgError(SqlState.badCopyFileFormat, 'extra data after last expected column', { where });
}

async function writeBatch(
  deps: CopyFromDeps,
  stmt: ParsedStatement,
  relation: PgNode,
  attlist: PgNode[],
  columns: readonly string[],
  rows: CopyRow[],
  conn: Awaited<ReturnType<WriteHost['connection']>>,
  relName: string,
): Promise<number> {
  const { host } = deps;
  const p = await plan(host, insertOf(stmt, relation, attlist, rows));
  const run = host.statement();
  try {
    const outcome = await run.inEngine(conn, () => host.writes().run(p, conn, []));
    return outcome.rows ?? 0;
  } catch (e) {
    if (run.reason) throw e;
    const err = toPgError(e, deps.onInternalError);
    const message = (e as { message?: unknown } | null)?.message;
    const at = typeof message === 'string' ? failingValue(message, rows, columns) : null;
    if (at) {
      // PostgreSQL's message names the value; the engine's mapping leaves values out, this one is the client's own
      // (PostgreSQL names the value for every type but json / jsonb, whose DETAIL names the token instead)
      const pgWords = /^invalid input syntax for type (?!jsonb?$)[^:]+$/.test(err.message);
      const named = pgWords ? `${err.message}: "${at.value}"` : err.message;
      // with the value named the message is PostgreSQL's own: no reference to the server log is needed
      throw new PgError(err.code, named, { detail: pgWords ? undefined : err.detail, hint: err.hint, where: `COPY ${relName}, line ${at.row.line}, column ${at.column}: "${display(at.value)}"` });
    }
    throw rows.length === 1 ? withContext(err, `COPY ${relName}, line ${rows[0]!.line}: "${display(rows[0]!.raw)}"`) : err;
  }
}
