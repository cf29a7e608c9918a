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
import { SqlError } from '../sql/errors.js';
import type { ParsedStatement } from '../sql/parse.js';
import { applySet, show } from './commands.js';
import type { Limits } from './config.js';
import type { Engine } from './engine.js';
import type { HeavyLane } from './heavyLane.js';
import { toPgError, type ErrorLog } from './errors.js';
import type { Identity } from './identity/identity.js';
import { QueryStatement, type Portal, type QueryPlanner } from './query.js';
import { route, type Route } from './router.js';
import { isAdminText, parseAdmin } from '../policy/admin/parse.js';
import type { AdminRoom } from '../policy/admin/room.js';
import type { AdminStatement } from '../policy/admin/statement.js';
import { adminFields, runAdmin } from './admin.js';
import { SessionSettings } from './settings.js';
import { StatementRun } from './statementRun.js';
import type { StatementParser } from './statementParser.js';
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
  parser: StatementParser;
  /** Large statements (over `largeStatementChars`) are planned through it, one at a time. */
  heavyLane: HeavyLane;
  largeStatementChars: number;
  limits: Pick<Limits, 'maxPreparedStatements' | 'maxPortals' | 'maxRowBytes'>;
  /** What the client is not told about a failure, under the reference it is given. */
  onInternalError: ErrorLog;
  /** Runs GRANT / REVOKE / DENY / SHOW GRANTS / CHECK ACCESS; null: they are refused. */
  admin?: AdminRoom | null;
  onEnd(): void;
}

/** A statement kept by name (Parse): either a query or a gateway command. */
interface Prepared {
  text: string;
  parsed: ParsedStatement | undefined;
  route: Route | { kind: 'empty' } | { kind: 'admin'; statement: AdminStatement };
  query?: QueryStatement;
}

export class Session implements QuerySession {
  readonly processId: number;
  readonly secretKey: number;
  readonly settings: SessionSettings;
  private readonly tx = new TransactionState();
  private readonly statements = new Map<string, Prepared>();
  private readonly portals = new Map<string, { stmt: Prepared; portal: Portal | null; done: boolean }>();
  /** The connection statements run on; a suspended portal takes it with it. */
  private conn: DuckDBConnection | null = null;
  /** The statement in progress: from its first message to its completion (or Sync), with its timer. */
  private run: StatementRun | null = null;
  /** A message is being worked on now (a CancelRequest only stops work in progress, as in PostgreSQL). */
  private busy = false;
  /** The client left or the server is shutting down: nothing new starts. */
  private stopped: 'disconnect' | 'shutdown' | null = null;
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
    if (this.busy) this.run?.stop('cancel');
  }

  interrupt(reason: 'disconnect' | 'shutdown'): void {
    this.stopped ??= reason;
    this.run?.stop(reason);
  }

  /** The statement run this message belongs to: the current one, or a new one with its own timer. */
  private statement(): StatementRun {
    this.run ??= new StatementRun(this.settings.statementTimeoutMs());
    if (this.stopped) this.run.stop(this.stopped);
    this.run.check();
    return this.run;
  }

  /** The statement is complete (or failed): its timer stops. */
  private endStatement(): void {
    this.run?.end();
    this.run = null;
  }

  // ---- simple query --------------------------------------------------------

  async simpleQuery(sql: string, out: Output): Promise<void> {
    // A simple query is its own statement: whatever an earlier extended batch left is over.
    this.endStatement();
    try {
      await this.reportingErrors(() => this.simpleQueryImpl(sql, out));
    } finally {
      this.endStatement();
    }
  }

  private async simpleQueryImpl(sql: string, out: Output): Promise<void> {
    const admin = this.adminStatement(sql);
    if (admin) {
      await this.runCommand(admin, out, true);
      return;
    }
    const stmts = await this.parseText(sql);
    if (stmts.length === 0) {
      be.emptyQueryResponse(out.writer);
      return;
    }
    for (const [i, stmt] of stmts.entries()) {
      // Each statement of the message gets its own statement_timeout (the first one's covers the parse).
      if (i > 0) this.endStatement();
      this.statement();
      const prepared = this.prepare(stmt.text, stmt, []);
      await this.runToCompletion(prepared, out);
    }
    // A multi-statement message outside a block is one implicit transaction in
    // PostgreSQL; with read-only statements there is nothing to commit.
  }

  /** Parse a query message under the current statement's timeout and cancel. */
  private async parseText(sql: string): Promise<ParsedStatement[]> {
    const run = this.statement();
    const stmts = await run.step(() => this.deps.parser.parse(sql, run.signal));
    return stmts;
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
    const max = this.deps.limits.maxPreparedStatements;
    if (name !== '' && this.statements.size - (this.statements.has('') ? 1 : 0) >= max) {
      throw new PgError(SqlState.programLimitExceeded, `too many prepared statements (at most ${max} per session)`, {
        hint: 'Close or DEALLOCATE prepared statements that are no longer needed.',
      });
    }
    const admin = this.adminStatement(sql);
    if (admin) {
      if (name === '') this.statements.delete('');
      this.statements.set(name, admin);
      return;
    }
    const stmts = await this.parseText(sql);
    if (stmts.length > 1) throw new SqlError('42601', 'cannot insert multiple commands into a prepared statement');
    const prepared = this.prepare(sql, stmts[0], paramOids);
    if (prepared.route.kind === 'query' || prepared.route.kind === 'empty') {
      // In an aborted block only transaction control can be prepared.
      this.tx.checkNotAborted();
    }
    if (prepared.query) {
      const conn = await this.connection();
      const run = this.statement();
      await this.planning(prepared, () => run.inEngine(conn, () => prepared.query!.describe(conn, () => run.check())));
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
    const maxPortals = this.deps.limits.maxPortals;
    if (req.portal !== '' && this.portals.size - (this.portals.has('') ? 1 : 0) >= maxPortals) {
      throw new PgError(SqlState.programLimitExceeded, `too many portals (at most ${maxPortals} per session)`, {
        hint: 'Close portals that are no longer needed.',
      });
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
    await this.reportingErrors(() => this.executeImpl(name, maxRows, out));
    // PostgreSQL stops statement_timeout when an Execute completes (or is suspended).
    this.endStatement();
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
    this.endStatement();
    // Outside a block each Sync ends the implicit transaction, which closes its portals.
    if (!this.tx.active) this.closeAllPortals();
  }

  async end(): Promise<void> {
    this.ended = true;
    this.endStatement();
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
    this.busy = true;
    try {
      await step();
    } catch (e) {
      // Whatever an interrupted step threw (an engine error, a cut-short result), the reason is what counts.
      const reason = this.run?.reason ?? this.stopped;
      this.endStatement();
      if (reason) throw StatementRun.errorFor(reason);
      throw toPgError(e, this.deps.onInternalError);
    } finally {
      this.busy = false;
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
        signal: () => this.run?.signal,
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
    const run = this.statement();
    return this.planning(prepared, () =>
      run.inEngine(conn, () =>
        prepared.query!.bind(conn, req, { timeZone: this.settings.get('TimeZone') }, this.deps.limits.maxRowBytes, () => run.check()),
      ),
    );
  }

  /** Work that may plan the statement: a large statement takes its turn in the heavy lane. */
  private planning<T>(prepared: Prepared, work: () => Promise<T>): Promise<T> {
    if (prepared.text.length <= this.deps.largeStatementChars || prepared.query?.isDescribed()) return work();
    return this.deps.heavyLane.run(work, this.statement().signal);
  }

  /** Returns true when the portal has no more rows. */
  private async runPortal(portal: Portal, maxRows: number, out: Output, describe: boolean): Promise<boolean> {
    const run = this.statement();
    // Refuse before any row is written: a portal that may suspend will need a connection of its own.
    if (maxRows > 0 && !portal.ownsConnection && this.openCursors() >= this.deps.maxOpenCursors) {
      throw new PgError(SqlState.programLimitExceeded, `too many open cursors (at most ${this.deps.maxOpenCursors} per session)`);
    }
    if (describe) be.rowDescription(out.writer, portal.fields);
    // An interrupted stream can end early without an error: inEngine checks the reason after it, so a cut-short result is never reported complete.
    const finished = await run.inEngine(portal.conn, () => portal.run(maxRows, out));
    if (!finished) this.detachConnection(portal);
    return finished;
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

  /**
   * An access-control statement is parsed by policy/admin (PostgreSQL's own
   * grammar for the standard GRANT / REVOKE, ours for the rest); null for any
   * other text, and for PostgreSQL GRANTs that are not ours (the router refuses those).
   */
  private adminStatement(sql: string): Prepared | null {
    if (!isAdminText(sql)) return null;
    this.statement();
    // Access-control statements are short; a long one is not parsed on the event loop.
    if (sql.length > 16_384) throw new PgError(SqlState.programLimitExceeded, 'access-control statement is too long (at most 16384 characters)');
    const statement = parseAdmin(sql);
    if (!statement) return null;
    if (!this.deps.admin) {
      throw new PgError(SqlState.featureNotSupported, 'access-control statements are not available: lakegate has no writable catalog policies configured');
    }
    return { text: sql, parsed: undefined, route: { kind: 'admin', statement } };
  }

  private commandFields(prepared: Prepared) {
    if (prepared.route.kind === 'admin') return adminFields(prepared.route.statement);
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
    if (prepared.route.kind === 'admin') {
      this.tx.checkNotAborted();
      // Policies are written at once, not at COMMIT: inside a block a ROLLBACK could not take them back.
      if (this.tx.active) throw new PgError(SqlState.activeSqlTransaction, `${prepared.route.statement.kind.toUpperCase().replace('-', ' ')} cannot run inside a transaction block`);
      // Checked before, not after: a policy written is reported written, even if a cancel or the
      // timer arrives while it is being written (the store's own timeout bounds the call).
      this.statement().check();
      const result = await runAdmin(this.deps.admin!, (prepared.route as { statement: AdminStatement }).statement, prepared.text, {
        user: this.user,
        roles: new Set(this.deps.identity.roles),
        defaultSchema: this.settings.searchPath(this.user)[0] ?? null,
        ...(this.deps.identity.credential ? { token: () => this.deps.identity.credential!.accessToken() } : {}),
      });
      writeTextResult(w, result, describe && result.fields.length > 0);
      return;
    }
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
