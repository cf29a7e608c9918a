/**
 * Running SQL cursors (DECLARE, FETCH / MOVE, CLOSE) and COPY … TO STDOUT.
 * The query inside each is bound by the session like any query (planned,
 * gated, under the statement's timeout and cancel); here the rows are moved:
 * kept in a portal with a connection of its own, streamed by FETCH, sent as
 * CopyData. `S` is the session's prepared statement, kept with the portal.
 */
import * as be from '../protocol/backend.js';
import { PgError, SqlState } from '../protocol/errors.js';
import type { BindRequest, Output } from '../protocol/handler.js';
import type { ParsedStatement } from '../sql/parse.js';
import type { Fields } from '../sql/walk.js';
import { copyOptions, CopySink } from './copyOut.js';
import { releasePortal, type PortalTable } from './portals.js';
import type { Portal } from './portal.js';
import { ScrollCursor } from './scrollCursor.js';
import { copySource, cursorDeclaration, cursorFetch, forwardStep, noSuchCursor } from '../sql/utilityStatements.js';
import type { StatementRun } from './statementRun.js';
import type { TransactionState } from './transaction.js';

/** What cursor commands need of the session. */
export interface CursorHost<S> {
  readonly tx: TransactionState;
  readonly portals: PortalTable<S>;
  readonly maxScrollCursorRows: number;
  /** In a block: an explicit one, or the implicit one of a multi-statement message (DECLARE without HOLD needs one). */
  inBlock(): boolean;
  /** Plan, gate and bind the statement's query. */
  bindQuery(stmt: S, req: BindRequest): Promise<Portal>;
  /** The portal keeps its connection; the session takes a fresh one. */
  detachConnection(portal: Portal): void;
  /** Throws when the session's connection may not leave with a cursor (its temporary tables, uncommitted writes). */
  checkDetachable(): void;
  /** The statement in progress, with its timeout and cancel. */
  statement(): StatementRun;
}

const queryBind = (portal: string, resultFormat: 0 | 1, bind?: BindRequest): BindRequest => ({
  portal,
  statement: '',
  paramFormats: bind?.paramFormats ?? [],
  params: bind?.params ?? [],
  resultFormats: [resultFormat],
});

/** DECLARE: the query is planned and bound like any query; the cursor is a portal with a connection of its own. */
export async function declareCursor<S>(host: CursorHost<S>, stmt: S, parsed: ParsedStatement, w: Output['writer'], bind?: BindRequest): Promise<void> {
  host.tx.checkNotAborted();
  const d = cursorDeclaration(parsed);
  const inBlock = host.inBlock();
  if (!d.hold && !inBlock) throw new PgError(SqlState.noActiveSqlTransaction, 'DECLARE CURSOR can only be used in transaction blocks');
  if (host.portals.has(d.name)) throw new PgError(SqlState.duplicateCursor, `cursor "${d.name}" already exists`);
  host.portals.checkCaps(true);
  host.checkDetachable();
  host.tx.noteQuery();
  const portal = await host.bindQuery(stmt, queryBind(d.name, d.binary ? 1 : 0, bind));
  host.detachConnection(portal);
  const scroll = d.scroll ? new ScrollCursor(portal, portal.fields.length, host.maxScrollCursorRows) : undefined;
  host.portals.set(d.name, { stmt, portal, done: false, cursor: { hold: d.hold, binary: d.binary, declaredInBlock: inBlock, scroll } });
  be.commandComplete(w, 'DECLARE CURSOR');
}

/**
 * FETCH / MOVE: rows stream from the cursor's result chunk by chunk (a SCROLL cursor's from its
 * spool, in any direction), under this statement's timeout and cancel.
 */
export async function fetchCursor<S>(host: CursorHost<S>, node: Fields, out: Output, describe: boolean, bind?: BindRequest): Promise<void> {
  host.tx.checkNotAborted();
  const f = cursorFetch(node);
  const entry = host.portals.get(f.name);
  if (!entry?.portal) throw noSuchCursor(f.name);
  const portal = entry.portal;
  const scroll = entry.cursor?.scroll;
  // without SCROLL: forward only (55000 for going back, as NO SCROLL in PostgreSQL), refused before any RowDescription
  // (a protocol portal fetched by name keeps no position: it is not a cursor of the session)
  const state = scroll ? undefined : entry.cursor ? (entry.cursor.forward ??= { pos: 0, atEnd: false }) : { pos: 0, atEnd: false };
  const step = state ? forwardStep(f, state) : undefined;
  if (!f.move) {
    // A simple query gets the cursor's own format (BINARY or text); the extended protocol the FETCH's Bind formats.
    await portal.reformat(bind ? bind.resultFormats : [entry.cursor?.binary ? 1 : 0]);
    if (describe) be.rowDescription(out.writer, portal.fields);
  }
  const run = host.statement();
  if (scroll) {
    const sent = await run.inEngine(portal.conn, () => scroll.fetch(f, out));
    be.commandComplete(out.writer, `${f.move ? 'MOVE' : 'FETCH'} ${sent}`);
    return;
  }
  const sent = await run.inEngine(portal.conn, async () => {
    if (step!.current !== undefined) return f.move && step!.current ? 1 : 0;
    if (step!.skip > 0) {
      const passed = await portal.stream(step!.skip, out, { skip: true });
      state!.pos += passed.sent;
      if (passed.sent < step!.skip) state!.atEnd = true;
    }
    if (step!.take === 0 || state!.atEnd) return 0;
    const taken = await portal.stream(step!.take === Infinity ? 0 : step!.take, out, { skip: f.move });
    state!.pos += taken.sent;
    if (taken.sent < step!.take) state!.atEnd = true;
    return taken.sent;
  });
  be.commandComplete(out.writer, `${f.move ? 'MOVE' : 'FETCH'} ${sent}`);
}

/** CLOSE name / CLOSE ALL. */
export function closeCursor<S>(host: CursorHost<S>, node: Fields, w: Output['writer']): void {
  const name = node['portalname'] as string | undefined;
  if (name === undefined) {
    host.portals.closeCursors();
    be.commandComplete(w, 'CLOSE CURSOR ALL');
    return;
  }
  if (!host.portals.has(name)) throw noSuchCursor(name);
  host.portals.drop(name);
  be.commandComplete(w, 'CLOSE CURSOR');
}

/** COPY … TO STDOUT: the query is planned and gated like any query; rows go out as CopyData with back-pressure. */
export async function copyOut<S>(host: CursorHost<S>, stmt: S, parsed: ParsedStatement, out: Output, bind?: BindRequest): Promise<void> {
  host.tx.checkNotAborted();
  host.tx.noteQuery();
  const opts = copyOptions(copySource(parsed).options);
  const portal = await host.bindQuery(stmt, queryBind('', opts.format === 'binary' ? 1 : 0, bind));
  try {
    const sink = new CopySink(opts, portal.fields.map((f) => f.name));
    const run = host.statement();
    sink.begin(out.writer);
    const { sent } = await run.inEngine(portal.conn, () => portal.stream(0, out, { sink }));
    sink.finish(out.writer);
    be.commandComplete(out.writer, `COPY ${sent}`);
  } finally {
    releasePortal(portal);
  }
}
