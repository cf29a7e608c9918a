/**
 * One logged-in session: settings, prepared statements, portals, the
 * transaction block, and the DuckDB connection its statements run on. It
 * implements the protocol's QuerySession; every statement goes through
 * parse → route → plan before anything reaches the engine.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import * as be from '../protocol/backend.js';
import { PgError, SqlState } from '../protocol/errors.js';
import type { BindRequest, Output, QuerySession, StartupInfo } from '../protocol/handler.js';
import { parseOne, parseStatements, type ParsedStatement } from '../sql/parse.js';
import { applySet, show } from './commands.js';
import type { Engine } from './engine.js';
import { isInterrupt, toPgError } from './errors.js';
import type { Identity } from './identity/identity.js';
import { QueryStatement, type Portal, type QueryPlanner } from './query.js';
import { route, type Route } from './router.js';
import { SessionSettings } from './settings.js';
import { writeTextResult, type TextResult } from './textResult.js';
import { TransactionState } from './transaction.js';

export interface SessionDeps {
  engine: Engine;
  planner: QueryPlanner;
  identity: Identity;
  info: StartupInfo;
  processId: number;
  secretKey: number;
  /** Bound on open cursors (suspended portals), each holding a DuckDB connection. */
  maxOpenCursors: number;
  onInternalError(e: unknown): void;
  onEnd(): void;
}

/** A statement kept by name (Parse): either a query or a gateway command. */
interface Prepared {
  text: string;
  parsed: ParsedStatement | undefined;
  route: Route | { kind: 'empty' };
  query?: QueryStatement;
}

type Running = { conn: DuckDBConnection; reason: 'cancel' | 'timeout' | null };
/** Planning in progress (catalog calls as the user): cancel and statement_timeout abort it. */
type Planning = { controller: AbortController; reason: 'cancel' | 'timeout' | null };

const canceled = (reason: 'cancel' | 'timeout' | null): PgError =>
  new PgError(SqlState.queryCanceled, reason === 'timeout' ? 'canceling statement due to statement timeout' : 'canceling statement due to user request');

export class Session implements QuerySession {
  readonly processId: number;
  readonly secretKey: number;
  readonly settings: SessionSettings;
  private readonly tx = new TransactionState();
  private readonly statements = new Map<string, Prepared>();
  private readonly portals = new Map<string, { stmt: Prepared; portal: Portal | null; done: boolean }>();
  /** The connection statements run on; a suspended portal takes it with it. */
  private conn: DuckDBConnection | null = null;
  private running: Running | null = null;
  private planning: Planning | null = null;
  private ended = false;

  constructor(private readonly deps: SessionDeps) {
    this.processId = deps.processId;
    this.secretKey = deps.secretKey;
    this.settings = new SessionSettings(deps.identity.user, deps.info.params);
  }

  get user(): string {
    return this.deps.identity.user;
  }

  get database(): string {
    return this.deps.info.database;
  }

  initialParameters(): [string, string][] {
    return this.settings.reported();
  }

  transactionStatus() {
    return this.tx.status();
  }

  errorOccurred(): void {
    this.tx.markFailed();
  }

  /** CancelRequest: interrupt whatever this session is running now. */
  cancel(): void {
    if (this.planning) {
      this.planning.reason ??= 'cancel';
      this.planning.controller.abort();
    }
    if (!this.running) return;
    this.running.reason ??= 'cancel';
    this.running.conn.interrupt();
  }

  // ---- simple query --------------------------------------------------------

  async simpleQuery(sql: string, out: Output): Promise<void> {
    return this.reportingErrors(() => this.simpleQueryImpl(sql, out));
  }

  private async simpleQueryImpl(sql: string, out: Output): Promise<void> {
    const stmts = parseStatements(sql);
    if (stmts.length === 0) {
      be.emptyQueryResponse(out.writer);
      return;
    }
    for (const stmt of stmts) {
      const prepared = this.prepare(stmt.text, stmt, []);
      await this.runToCompletion(prepared, out);
    }
    // A multi-statement message outside a block is one implicit transaction in
    // PostgreSQL; with read-only statements there is nothing to commit.
  }

  private async runToCompletion(prepared: Prepared, out: Output): Promise<void> {
    if (prepared.route.kind === 'query') {
      this.tx.checkNotAborted();
      const portal = await this.bindQuery(prepared, { portal: '', statement: '', paramFormats: [], params: [], resultFormats: [] });
      try {
        await this.runPortal(portal, 0, out, true);
      } finally {
        this.releasePortal(portal);
      }
      return;
    }
    await this.runCommand(prepared, out, true);
  }

  // ---- extended query ------------------------------------------------------

  async parse(name: string, sql: string, paramOids: number[]): Promise<void> {
    return this.reportingErrors(() => this.parseImpl(name, sql, paramOids));
  }

  private async parseImpl(name: string, sql: string, paramOids: number[]): Promise<void> {
    if (name !== '' && this.statements.has(name)) {
      throw new PgError(SqlState.duplicatePreparedStatement, `prepared statement "${name}" already exists`);
    }
    const stmt = parseOne(sql);
    const prepared = this.prepare(sql, stmt, paramOids);
    if (prepared.route.kind === 'query' || prepared.route.kind === 'empty') {
      // In an aborted block only transaction control can be prepared.
      this.tx.checkNotAborted();
    }
    if (prepared.query) {
      const conn = await this.connection();
      await this.planningBudget(() => prepared.query!.describe(conn));
    }
    if (name === '') this.statements.delete('');
    this.statements.set(name, prepared);
  }

  async bind(req: BindRequest): Promise<void> {
    return this.reportingErrors(() => this.bindImpl(req));
  }

  private async bindImpl(req: BindRequest): Promise<void> {
    const prepared = this.statements.get(req.statement);
    if (!prepared) {
      throw new PgError(SqlState.invalidSqlStatementName, `prepared statement "${req.statement}" does not exist`);
    }
    if (req.portal !== '' && this.portals.has(req.portal)) {
      throw new PgError(SqlState.duplicateCursor, `portal "${req.portal}" already exists`);
    }
    const expected = prepared.query?.paramOids.length ?? 0;
    if (req.params.length !== expected) {
      throw new PgError(
        SqlState.protocolViolation,
        `bind message supplies ${req.params.length} parameters, but prepared statement "${req.statement}" requires ${expected}`,
      );
    }
    if (req.paramFormats.length > 1 && req.paramFormats.length !== req.params.length) {
      throw PgError.protocol(`bind message has ${req.paramFormats.length} parameter formats but ${req.params.length} parameters`);
    }
    this.dropPortal(req.portal);
    if (prepared.route.kind === 'query') {
      this.tx.checkNotAborted();
      const portal = await this.bindQuery(prepared, req);
      this.portals.set(req.portal, { stmt: prepared, portal, done: false });
    } else {
      this.portals.set(req.portal, { stmt: prepared, portal: null, done: false });
    }
  }

  async describeStatement(name: string, out: Output): Promise<void> {
    const prepared = this.statements.get(name);
    if (!prepared) throw new PgError(SqlState.invalidSqlStatementName, `prepared statement "${name}" does not exist`);
    be.parameterDescription(out.writer, prepared.query?.paramOids ?? []);
    const fields = prepared.query ? prepared.query.fields([]) : this.commandFields(prepared);
    if (fields) be.rowDescription(out.writer, fields);
    else be.noData(out.writer);
  }

  async describePortal(name: string, out: Output): Promise<void> {
    const entry = this.portals.get(name);
    if (!entry) throw new PgError(SqlState.invalidCursorName, `portal "${name}" does not exist`);
    const fields = entry.portal ? entry.portal.fields : this.commandFields(entry.stmt);
    if (fields) be.rowDescription(out.writer, fields);
    else be.noData(out.writer);
  }

  async execute(name: string, maxRows: number, out: Output): Promise<void> {
    return this.reportingErrors(() => this.executeImpl(name, maxRows, out));
  }

  private async executeImpl(name: string, maxRows: number, out: Output): Promise<void> {
    const entry = this.portals.get(name);
    if (!entry) throw new PgError(SqlState.invalidCursorName, `portal "${name}" does not exist`);
    if (entry.stmt.route.kind === 'empty') {
      be.emptyQueryResponse(out.writer);
      return;
    }
    if (entry.done) {
      // PostgreSQL answers an exhausted portal with an empty completion.
      be.commandComplete(out.writer, entry.portal ? 'SELECT 0' : this.commandTag(entry.stmt));
      return;
    }
    if (!entry.portal) {
      entry.done = true;
      await this.runCommand(entry.stmt, out, false);
      return;
    }
    this.tx.checkNotAborted();
    const finished = await this.runPortal(entry.portal, maxRows, out, false);
    if (finished) {
      entry.done = true;
      this.releasePortal(entry.portal);
    }
  }

  async close(kind: 'S' | 'P', name: string): Promise<void> {
    if (kind === 'S') this.statements.delete(name);
    else this.dropPortal(name);
  }

  async sync(): Promise<void> {
    // Outside a block each Sync ends the implicit transaction, which closes its portals.
    if (!this.tx.active) this.closeAllPortals();
  }

  async end(): Promise<void> {
    this.ended = true;
    this.deps.identity.credential?.close();
    this.deps.onEnd();
    this.closeAllPortals();
    this.statements.clear();
    this.conn?.closeSync();
    this.conn = null;
  }

  /** Every failure leaves the session as a PgError with a safe message. */
  private async reportingErrors(step: () => Promise<void>): Promise<void> {
    // A login the identity provider no longer honours ends the session here, at
    // the next statement; a statement already streaming is left to finish.
    const ended = this.deps.identity.credential?.endedReason();
    if (ended) {
      throw new PgError(SqlState.invalidAuthorizationSpecification, `terminating connection: the login of user "${this.user}" is no longer valid`, {
        severity: 'FATAL',
        detail: ended,
        hint: 'Connect again to log in.',
      });
    }
    try {
      await step();
    } catch (e) {
      throw toPgError(e, this.deps.onInternalError);
    }
  }

  // ---- statements ----------------------------------------------------------

  private prepare(text: string, stmt: ParsedStatement | undefined, paramOids: number[]): Prepared {
    if (!stmt) return { text, parsed: undefined, route: { kind: 'empty' } };
    const r = route(stmt);
    if (r.kind === 'refused') throw r.error;
    const prepared: Prepared = { text, parsed: stmt, route: r };
    if (r.kind === 'query') {
      prepared.query = new QueryStatement(stmt, paramOids, this.deps.planner, {
        database: this.database,
        user: this.user,
        roles: this.deps.identity.roles,
        groups: this.deps.identity.groups,
        signal: () => this.planning?.controller.signal,
        ...(this.deps.identity.credential
          ? { accessToken: () => this.deps.identity.credential!.accessToken(), renewToken: () => this.deps.identity.credential!.renew() }
          : {}),
        searchPath: this.settings.searchPath(this.user),
        settings: (n) => {
          try {
            return this.settings.get(n);
          } catch {
            return undefined;
          }
        },
        backendPid: this.processId,
      });
    }
    return prepared;
  }

  private async bindQuery(prepared: Prepared, req: BindRequest): Promise<Portal> {
    const conn = await this.connection();
    return this.planningBudget(() => prepared.query!.bind(conn, req, { timeZone: this.settings.get('TimeZone') }));
  }

  /** statement_timeout for one phase of a statement: `fire` once it elapses; returns the timer (null: no timeout). */
  private statementTimer(fire: () => void): NodeJS.Timeout | null {
    const timeoutMs = this.settings.statementTimeoutMs();
    return timeoutMs > 0 ? setTimeout(fire, timeoutMs) : null;
  }

  /** Planning (which may call the catalog) under the same cancel and statement_timeout as running. */
  private async planningBudget<T>(step: () => Promise<T>): Promise<T> {
    const planning: Planning = { controller: new AbortController(), reason: null };
    const timer = this.statementTimer(() => {
      planning.reason ??= 'timeout';
      planning.controller.abort();
    });
    this.planning = planning;
    try {
      return await step();
    } catch (e) {
      if (planning.reason) throw canceled(planning.reason);
      throw e;
    } finally {
      if (timer) clearTimeout(timer);
      if (this.planning === planning) this.planning = null;
    }
  }

  /** Returns true when the portal has no more rows. */
  private async runPortal(portal: Portal, maxRows: number, out: Output, describe: boolean): Promise<boolean> {
    const running: Running = { conn: portal.conn, reason: null };
    const timer = this.statementTimer(() => {
      running.reason ??= 'timeout';
      running.conn.interrupt();
    });
    this.running = running;
    try {
      // Refuse before any row is written: a portal that may suspend will need a connection of its own.
      if (maxRows > 0 && !portal.ownsConnection && this.openCursors() >= this.deps.maxOpenCursors) {
        throw new PgError(SqlState.programLimitExceeded, `too many open cursors (at most ${this.deps.maxOpenCursors} per session)`);
      }
      if (describe) be.rowDescription(out.writer, portal.fields);
      const finished = await portal.run(maxRows, out);
      if (!finished) this.detachConnection(portal);
      return finished;
    } catch (e) {
      if (isInterrupt(e) || running.reason) throw canceled(running.reason);
      throw toPgError(e, this.deps.onInternalError);
    } finally {
      if (timer) clearTimeout(timer);
      this.running = null;
    }
  }

  /** A suspended portal keeps its connection (its stream lives there); the session takes a fresh one. */
  private detachConnection(portal: Portal): void {
    if (portal.ownsConnection) return;
    portal.ownsConnection = true;
    if (this.conn === portal.conn) this.conn = null;
  }

  private openCursors(): number {
    let n = 0;
    for (const p of this.portals.values()) if (p.portal?.ownsConnection) n++;
    return n;
  }

  private releasePortal(portal: Portal): void {
    portal.close();
    if (portal.ownsConnection) portal.conn.closeSync();
  }

  private dropPortal(name: string): void {
    const entry = this.portals.get(name);
    if (!entry) return;
    this.portals.delete(name);
    if (entry.portal) this.releasePortal(entry.portal);
  }

  private closeAllPortals(): void {
    for (const name of [...this.portals.keys()]) this.dropPortal(name);
  }

  private async connection(): Promise<DuckDBConnection> {
    if (this.ended) throw new PgError(SqlState.adminShutdown, 'session has ended');
    this.conn ??= await this.deps.engine.connect();
    return this.conn;
  }

  // ---- gateway commands ----------------------------------------------------

  private commandFields(prepared: Prepared) {
    if (prepared.route.kind === 'show') return this.showResult(prepared).fields;
    return null;
  }

  private showResult(prepared: Prepared): TextResult {
    const fields = prepared.parsed!.node['VariableShowStmt']!;
    return show(this.settings, fields['name'] as string);
  }

  private commandTag(prepared: Prepared): string {
    switch (prepared.route.kind) {
      case 'set':
        return 'SET';
      case 'show':
        return 'SHOW';
      default:
        return '';
    }
  }

  private async runCommand(prepared: Prepared, out: Output, describe: boolean): Promise<void> {
    const w = out.writer;
    const node = prepared.parsed!.node[prepared.parsed!.kind]!;
    switch (prepared.route.kind) {
      case 'transaction': {
        const outcome = this.tx.apply(node);
        if (outcome.notice) be.noticeResponse(w, outcome.notice);
        if (outcome.ended) this.closeAllPortals();
        be.commandComplete(w, outcome.tag);
        return;
      }
      case 'set': {
        this.tx.checkNotAborted();
        const { changed } = applySet(this.settings, node);
        be.commandComplete(w, 'SET');
        for (const name of changed) be.parameterStatus(w, name, this.settings.get(name));
        return;
      }
      case 'show':
        this.tx.checkNotAborted();
        writeTextResult(w, this.showResult(prepared), describe);
        return;
      case 'discard': {
        this.tx.checkNotAborted();
        if (node['target'] !== 'DISCARD_ALL') {
          be.commandComplete(w, node['target'] === 'DISCARD_PLANS' ? 'DISCARD PLANS' : node['target'] === 'DISCARD_SEQUENCES' ? 'DISCARD SEQUENCES' : 'DISCARD TEMP');
          return;
        }
        if (this.tx.active) {
          throw new PgError(SqlState.activeSqlTransaction, 'DISCARD ALL cannot run inside a transaction block');
        }
        const changed = this.settings.reset('ALL');
        this.closeAllPortals();
        for (const name of [...this.statements.keys()]) if (name !== '') this.statements.delete(name);
        be.commandComplete(w, 'DISCARD ALL');
        for (const name of changed) be.parameterStatus(w, name, this.settings.get(name));
        return;
      }
      case 'deallocate': {
        this.tx.checkNotAborted();
        if (node['isall']) {
          for (const name of [...this.statements.keys()]) if (name !== '') this.statements.delete(name);
          be.commandComplete(w, 'DEALLOCATE ALL');
          return;
        }
        const name = node['name'] as string;
        if (!this.statements.has(name) || name === '') {
          throw new PgError(SqlState.invalidSqlStatementName, `prepared statement "${name}" does not exist`);
        }
        this.statements.delete(name);
        be.commandComplete(w, 'DEALLOCATE');
        return;
      }
      default:
        throw new PgError(SqlState.internalError, 'statement has no handler');
    }
  }
}
