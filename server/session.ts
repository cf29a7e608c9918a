/**
 * One logged-in session: settings, prepared statements, portals, the
 * transaction block, and the DuckDB connection its statements run on. It
 * implements the protocol's QuerySession; every statement goes through
 * parse → route → plan before anything reaches the engine.
 */
import * as be from '../protocol/backend.js';
import { PgError, SqlState } from '../protocol/errors.js';
import type { BindRequest, Output, QuerySession, StartupInfo } from '../protocol/handler.js';
import { SqlError } from '../sql/errors.js';
import type { ParsedStatement } from '../sql/parse.js';
import type { Fields } from '../sql/walk.js';
import { applySet, show, transactionOptions } from './commands.js';
import type { Limits } from './config.js';
import type { EngineConnection } from './engine/connection.js';
import type { Engine } from './engine/pool.js';
import type { HeavyLane } from './heavyLane.js';
import { engineLost, toPgError, type ErrorLog } from './errors.js';
import type { Identity } from './identity/identity.js';
import type { Auditor } from './audit/auditor.js';
import { releasePortal, PortalTable } from './portals.js';
import type { Portal } from './portal.js';
import { QueryStatement } from './queryStatement.js';
import type { PlanContext, QueryPlanner } from './queryPlan.js';
import type { PgField } from './rows/api.js';
import { commandName, route, type Route } from './router.js';
import { SessionSettings, settingDef } from './settings.js';
import {
  bindSessionCalls,
  callSessionFunction,
  sessionParamOids,
  checkArity,
  nextTxid,
  sessionCallFields,
  type Backends,
} from './sessionFunctions.js';
import { sessionCalls, type SessionCall } from '../sql/sessionCalls.js';
import { SessionActivity } from './activity.js';
import type { BackendActivity } from '../pgcatalog/pgCatalogTables.js';
import { analyzeFailure, analyzeProbes, copySource, cursorDeclaration, executeArguments, preparation } from '../sql/utilityStatements.js';
import { closeCursor, copyOut, declareCursor, fetchCursor, type CursorHost } from './sqlCursors.js';
import type { AdminRoom } from '../policy/admin/room.js';
import { adminFields, runAdmin } from './admin.js';
import { StatementRun } from './statementRun.js';
import type { StatementSlots } from './statementSlots.js';
import { isAccessControl, type MessageStatement, type StatementParser } from './statementParser.js';
import { dataRowText, writeTextResult, type TextResult } from './textResult.js';
import { TransactionState } from './transaction.js';
import { SessionWrites, type WriteDeps } from './write/sessionWrites.js';
import { copyFrom, isCopyFromStdin } from './copyIn/copyFrom.js';
import { describeWrite, runWrite, type WriteHost, type WritePlanner } from './write/statement.js';
import { walk } from '../sql/walk.js';
import { abortable } from '../catalog/planSnapshot.js';

export interface SessionDeps {
  engine: Engine;
  planner: QueryPlanner & Partial<WritePlanner>;
  /** Writes through the Iceberg catalog (issue 19); null: the database is read-only and writes are refused. */
  writes?: WriteDeps | null;
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
  limits: Pick<Limits, 'maxPreparedStatements' | 'maxPortals' | 'maxRowBytes' | 'maxScrollCursorRows'>;
  /** What the client is not told about a failure, under the reference it is given. */
  onInternalError: ErrorLog;
  /** Runs GRANT / REVOKE / DENY / SHOW GRANTS / CHECK ACCESS; null: they are refused. */
  admin?: AdminRoom | null;
  onEnd(): void;
  /** Statements refused by the router are audited here; the planner audits what it decides. */
  audit?: Auditor;
  /** The gateway's other sessions, for pg_cancel_backend / pg_terminate_backend. */
  backends?: Backends;
  /** The user's running-statement limit (server/statementSlots.ts); absent: none. */
  statementSlots?: StatementSlots;
  /** Server-wide defaults of settings (config `settings`), under the startup packet's. */
  settingDefaults?: Readonly<Record<string, string>>;
}

/** A statement kept by name (Parse): either a query or a gateway command. */
interface Prepared {
  text: string;
  parsed: ParsedStatement | undefined;
  route: Route | { kind: 'empty' };
  /** The query it runs: the statement itself, or the one DECLARE / COPY wraps. */
  query?: QueryStatement;
  /** Parameter types of a statement answered by the session (session functions with `$n`). */
  paramOids?: number[];
}

/** The kinds of statement the session runs itself: every route but a query (a portal runs it) and a refusal. */
type CommandKind = Exclude<Route['kind'], 'query' | 'refused'>;

/** Runs one statement of its kind; `describe`: RowDescription is sent first (simple query, SQL EXECUTE). */
type CommandHandler = (prepared: Prepared, out: Output, describe: boolean, bind?: BindRequest) => Promise<void> | void;

/** The parse tree's fields of a statement in PostgreSQL's grammar. */
const fieldsOf = (prepared: Prepared): Fields => prepared.parsed!.node[prepared.parsed!.kind]!;


export class Session implements QuerySession {
  readonly processId: number;
  readonly secretKey: number;
  readonly settings: SessionSettings;
  private readonly tx = new TransactionState();
  private readonly statements = new Map<string, Prepared>();
  private readonly portals: PortalTable<Prepared>;
  /** A simple query of several statements runs as one implicit block (DECLARE works in it, as in PostgreSQL). */
  private implicitBlock = false;
  /** The connection statements run on; a suspended portal takes it with it. */
  private conn: EngineConnection | null = null;
  /** An engine connection on its way (the user's engine may be starting). */
  private connecting: Promise<EngineConnection> | null = null;
  /** The statement in progress: from its first message to its completion (or Sync), with its timer. */
  private run: StatementRun | null = null;
  /** A message is being worked on now (a CancelRequest only stops work in progress, as in PostgreSQL). */
  private busy = false;
  /** The client left or the server is shutting down: nothing new starts. */
  private stopped: 'disconnect' | 'shutdown' | null = null;
  private ended = false;
  /** txid_current() of the current block. */
  private txid: number | null = null;
  private readonly activity = new SessionActivity();
  private readonly cursorHost: CursorHost<Prepared>;
  /** Ends this session's connection with FATAL 57P01 (pg_terminate_backend); set by the listener. */
  terminator: (() => void) | null = null;
  /** The session's writes (made at its first write). */
  private writer: SessionWrites | null = null;
  private readonly writeHost: WriteHost;
  private readonly commands = this.commandHandlers();

  constructor(private readonly deps: SessionDeps) {
    this.processId = deps.processId;
    this.secretKey = deps.secretKey;
    this.settings = new SessionSettings(deps.identity.user, deps.info.params, deps.settingDefaults);
    this.portals = new PortalTable({ maxPortals: deps.limits.maxPortals, maxOpenCursors: deps.maxOpenCursors });
    this.cursorHost = {
      tx: this.tx,
      portals: this.portals,
      maxScrollCursorRows: deps.limits.maxScrollCursorRows,
      inBlock: () => this.tx.active || this.implicitBlock,
      bindQuery: (stmt, req) => this.bindQuery(stmt, req),
      detachConnection: (portal) => this.detachConnection(portal),
      checkDetachable: () => this.checkDetachable(),
      statement: () => this.statement(),
    };
    this.writeHost = {
      planner: deps.planner,
      writes: () => (this.writer ??= new SessionWrites(this.deps.writes!, () => this.catalogCaller(), this.processId)),
      connection: () => this.connection(),
      statement: () => this.statement(),
      planContext: () => this.planContext(),
      inBlock: () => this.tx.active || this.implicitBlock,
      readOnly: () => this.settings.get('transaction_read_only') === 'on',
      timeZone: () => this.settings.get('TimeZone'),
    };
  }

  /** Who catalog calls are made as: the session's user, with the login's token where there is one. */
  private catalogCaller() {
    const credential = this.deps.identity.credential;
    return {
      user: this.user,
      ...(credential ? { token: () => credential.accessToken(), refresh: () => credential.renew() } : {}),
      clientAddress: this.deps.info.remoteAddress,
      sessionId: this.processId,
    };
  }

  get user(): string {
    return this.deps.identity.user;
  }

  get database(): string {
    return this.deps.info.database;
  }

  /** This session as pg_stat_activity shows it. */
  activityRow(): BackendActivity {
    const addr = this.deps.info.remoteAddress;
    return this.activity.row(
      {
        pid: this.processId,
        user: this.user,
        applicationName: this.settings.get('application_name') ?? '',
        clientAddr: addr === '' ? null : addr.replace(/^::ffff:(?=\d+\.)/, ''),
        clientPort: this.deps.info.remotePort ?? null,
      },
      this.tx.status(),
    );
  }

  private get auditSubject() {
    return { user: this.user, clientIp: this.deps.info.remoteAddress, sessionId: this.processId, clientType: this.deps.info.params['application_name'] ?? null };
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

  /** pg_terminate_backend: the connection ends as in a server shutdown. */
  terminate(): void {
    this.terminator?.();
  }

  interrupt(reason: 'disconnect' | 'shutdown'): void {
    this.stopped ??= reason;
    this.run?.stop(reason);
  }

  /** The statement run this message belongs to: the current one, or a new one with its own timer. */
  private statement(): StatementRun {
    this.run ??= new StatementRun(this.settings.statementTimeoutMs(), this.deps.statementSlots ?? null);
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
    this.activity.running(sql);
    try {
      await this.reportingErrors(() => this.simpleQueryImpl(sql, out));
    } finally {
      this.endStatement();
      this.activity.ready(this.tx.status());
    }
  }

  private async simpleQueryImpl(sql: string, out: Output): Promise<void> {
    const stmts = await this.parseText(sql);
    if (stmts.length === 0) {
      be.emptyQueryResponse(out.writer);
      return;
    }
    this.implicitBlock = stmts.length > 1 && !this.tx.active;
    try {
      for (const [i, stmt] of stmts.entries()) {
        // Each statement of the message gets its own statement_timeout (the first one's covers the parse).
        if (i > 0) this.endStatement();
        this.statement();
        const prepared = this.prepare(stmt.text, stmt, []);
        await this.runToCompletion(prepared, out);
      }
      // The message's implicit transaction commits what its statements wrote, as one.
      if (this.implicitBlock && this.writer?.inBlock) await this.writer.commit();
    } catch (e) {
      if (this.implicitBlock && this.writer?.inBlock) await this.writer.rollback();
      throw e;
    } finally {
      // The implicit block ends with the message, and its cursors with it.
      if (this.implicitBlock && !this.tx.active) this.portals.closeTransaction(true);
      this.implicitBlock = false;
    }
    // A multi-statement message outside a block is one implicit transaction in
    // PostgreSQL; with read-only statements there is nothing to commit.
  }

  /** Parse a query message under the current statement's timeout and cancel. */
  private async parseText(sql: string): Promise<MessageStatement[]> {
    const run = this.statement();
    const stmts = await run.step(() => this.deps.parser.parse(sql, run.signal));
    return stmts;
  }

  private async runToCompletion(prepared: Prepared, out: Output): Promise<void> {
    if (prepared.route.kind === 'query') {
      this.tx.checkNotAborted();
      this.tx.noteQuery();
      const portal = await this.bindQuery(prepared, { portal: '', statement: '', paramFormats: [], params: [], resultFormats: [] });
      try {
        await this.runPortal(portal, 0, out, true);
      } finally {
        releasePortal(portal);
      }
      return;
    }
    await this.runCommand(prepared, out, true);
  }

  // ---- extended query ------------------------------------------------------

  async parse(name: string, sql: string, paramOids: number[]): Promise<void> {
    this.activity.running(sql);
    return this.reportingErrors(() => this.parseImpl(name, sql, paramOids));
  }

  private async parseImpl(name: string, sql: string, paramOids: number[]): Promise<void> {
    this.checkStatementCap(name);
    const stmts = await this.parseText(sql);
    if (stmts.length > 1) throw new SqlError('42601', 'cannot insert multiple commands into a prepared statement');
    const prepared = this.prepare(sql, stmts[0], paramOids);
    if (prepared.route.kind === 'query' || prepared.route.kind === 'empty') {
      // In an aborted block only transaction control can be prepared.
      this.tx.checkNotAborted();
    }
    if (prepared.query) await this.describeQuery(prepared);
    if (prepared.route.kind === 'write') {
      prepared.paramOids = await describeWrite(this.writeHost, prepared.parsed!, paramOids, parameterCount(prepared.parsed!));
    }
    if (name === '') this.statements.delete('');
    this.statements.set(name, prepared);
  }

  /** Plan and prepare a statement's query without running it (errors show at Parse / PREPARE, as in PostgreSQL). */
  private async describeQuery(prepared: Prepared): Promise<void> {
    const run = this.statement();
    const conn = await this.connection();
    await this.planning(prepared, () => run.inEngine(conn, () => prepared.query!.describe(conn, () => run.check())));
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
    if (req.portal !== '') this.portals.checkCaps(false);
    const expected = (prepared.query?.paramOids ?? prepared.paramOids ?? []).length;
    if (req.params.length !== expected) {
      throw new PgError(
        SqlState.protocolViolation,
        `bind message supplies ${req.params.length} parameters, but prepared statement "${req.statement}" requires ${expected}`,
      );
    }
    if (req.paramFormats.length > 1 && req.paramFormats.length !== req.params.length) {
      throw PgError.protocol(`bind message has ${req.paramFormats.length} parameter formats but ${req.params.length} parameters`);
    }
    this.portals.drop(req.portal);
    if (prepared.route.kind === 'query') {
      this.tx.checkNotAborted();
      this.tx.noteQuery();
      const portal = await this.bindQuery(prepared, req);
      this.portals.set(req.portal, { stmt: prepared, portal, done: false });
    } else {
      this.portals.set(req.portal, { stmt: prepared, portal: null, done: false, bind: req });
    }
  }

  async describeStatement(name: string, out: Output): Promise<void> {
    const prepared = this.statements.get(name);
    if (!prepared) throw new PgError(SqlState.invalidSqlStatementName, `prepared statement "${name}" does not exist`);
    be.parameterDescription(out.writer, prepared.query?.paramOids ?? prepared.paramOids ?? []);
    const fields = prepared.route.kind === 'query' ? prepared.query!.fields([]) : this.commandFields(prepared, []);
    if (fields) be.rowDescription(out.writer, fields);
    else be.noData(out.writer);
  }

  async describePortal(name: string, out: Output): Promise<void> {
    const entry = this.portals.get(name);
    if (!entry) throw new PgError(SqlState.invalidCursorName, `portal "${name}" does not exist`);
    const fields = entry.portal ? entry.portal.fields : this.commandFields(entry.stmt, entry.bind?.resultFormats ?? []);
    if (fields) be.rowDescription(out.writer, fields);
    else be.noData(out.writer);
  }

  async execute(name: string, maxRows: number, out: Output): Promise<void> {
    const entry = this.portals.get(name);
    if (entry) this.activity.running(entry.stmt.text);
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
      await this.runCommand(entry.stmt, out, false, entry.bind);
      return;
    }
    this.tx.checkNotAborted();
    const finished = await this.runPortal(entry.portal, maxRows, out, false);
    if (finished) {
      entry.done = true;
      releasePortal(entry.portal);
    }
  }

  async close(kind: 'S' | 'P', name: string): Promise<void> {
    if (kind === 'S') this.statements.delete(name);
    else this.portals.drop(name);
  }

  async sync(): Promise<void> {
    this.endStatement();
    this.activity.ready(this.tx.status());
    // Outside a block each Sync ends the implicit transaction, which closes its portals (WITH HOLD cursors stay).
    if (!this.tx.active) this.portals.closeTransaction(true);
  }

  async end(): Promise<void> {
    this.ended = true;
    this.endStatement();
    this.deps.identity.credential?.close();
    this.deps.onEnd();
    this.portals.closeAll();
    this.statements.clear();
    await this.writer?.close(this.conn).catch(() => undefined);
    this.conn?.close();
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

  private prepare(text: string, stmt: MessageStatement | undefined, paramOids: number[]): Prepared {
    if (!stmt) return { text, parsed: undefined, route: { kind: 'empty' } };
    const r = route(stmt);
    if (isAccessControl(stmt)) {
      // Without writable catalog policies nothing could run it: refused at Parse, as a missing feature.
      if (!this.deps.admin) {
        throw new PgError(SqlState.featureNotSupported, 'access-control statements are not available: lakegate has no writable catalog policies configured');
      }
      return { text, parsed: undefined, route: r };
    }
    if (r.kind === 'refused') {
      this.deps.audit?.refused(this.auditSubject, this.database, stmt.text, commandName(stmt.kind), r.error);
      throw r.error;
    }
    if ((r.kind === 'write' || (r.kind === 'copy' && isCopyFromStdin(stmt))) && !this.deps.writes) {
      const refused = readOnlyRefusal(stmt.kind);
      this.deps.audit?.refused(this.auditSubject, this.database, stmt.text, commandName(stmt.kind), refused);
      throw refused;
    }
    const prepared: Prepared = { text, parsed: stmt, route: r };
    if (r.kind === 'sessionFunction') prepared.paramOids = sessionParamOids(sessionCalls(stmt.node[stmt.kind]!, this.processId)!, paramOids);
    const query = r.kind === 'query' ? stmt : r.kind === 'declare' ? cursorDeclaration(stmt).query : r.kind === 'copy' && !isCopyFromStdin(stmt) ? copySource(stmt).query : null;
    if (query && query !== stmt) {
      // The query a cursor or COPY wraps is routed like one typed on its own (SELECT … INTO is a write).
      const inner = route(query);
      if (inner.kind === 'refused' || inner.kind === 'write') {
        const error = inner.kind === 'refused' ? inner.error : PgError.featureNotSupported(`${commandName(query.kind)} is not allowed here`);
        this.deps.audit?.refused(this.auditSubject, this.database, stmt.text, commandName(query.kind), error);
        throw error;
      }
    }
    if (query) {
      prepared.query = new QueryStatement(query, paramOids, this.deps.planner, this.planContext());
    }
    return prepared;
  }

  /** What the planner decides a statement of this session with. */
  private planContext(): PlanContext {
    return {
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
      activity: () => this.deps.backends?.activity(this.user) ?? [this.activityRow()],
      clientAddress: this.deps.info.remoteAddress,
      ...(this.deps.info.params['application_name'] ? { clientType: this.deps.info.params['application_name'] } : {}),
      tempTables: () => this.writer?.tempTables() ?? [],
    };
  }

  private async bindQuery(prepared: Prepared, req: BindRequest): Promise<Portal> {
    const run = this.statement();
    const conn = await this.connection();
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
    if (maxRows > 0 && !portal.ownsConnection) {
      this.portals.checkCursorCap();
      this.checkDetachable();
    }
    if (describe) be.rowDescription(out.writer, portal.fields);
    // An interrupted stream can end early without an error: inEngine checks the reason after it, so a cut-short result is never reported complete.
    const finished = await run.inEngine(portal.conn, () => portal.run(maxRows, out));
    if (!finished) this.detachConnection(portal);
    return finished;
  }

  /** A suspended portal keeps its connection (its stream lives there); the session takes a fresh one. */
  /**
   * A portal that stays open takes the session's engine connection with it. Where that
   * connection holds the session's temporary tables or a block's uncommitted writes, they
   * would stay with the portal, out of the session's reach: refused before any row is sent.
   */
  private checkDetachable(): void {
    if (this.writer?.holdsEngineState()) {
      throw new PgError(SqlState.featureNotSupported, 'a cursor or a suspended portal cannot be kept open in a session with temporary tables or uncommitted writes', {
        hint: 'Fetch all rows at once, or open the cursor after COMMIT in a session without temporary tables.',
      });
    }
  }

  private detachConnection(portal: Portal): void {
    if (portal.ownsConnection) return;
    portal.ownsConnection = true;
    if (this.conn === portal.conn) this.conn = null;
  }

  private checkStatementCap(name: string): void {
    if (name !== '' && this.statements.has(name)) {
      throw new PgError(SqlState.duplicatePreparedStatement, `prepared statement "${name}" already exists`);
    }
    const max = this.deps.limits.maxPreparedStatements;
    if (name !== '' && this.statements.size - (this.statements.has('') ? 1 : 0) >= max) {
      throw new PgError(SqlState.programLimitExceeded, `too many prepared statements (at most ${max} per session)`, {
        hint: 'Close or DEALLOCATE prepared statements that are no longer needed.',
      });
    }
  }

  private async connection(): Promise<EngineConnection> {
    if (this.ended) throw new PgError(SqlState.adminShutdown, 'session has ended');
    if (this.conn?.lost || this.portals.holdsLostEngine()) {
      // The engine process went away while this session was idle. What it held for the
      // session (open cursors, temporary tables, a block's data) is gone: the session ends,
      // as a statement running there did.
      if (this.portals.holdsLostEngine() || this.writer?.holdsEngineState()) throw engineLost();
      this.writer?.engineLost();
      // Nothing of the session's lived there but prepared forms, which are made again.
      this.conn = null;
    }
    if (this.conn) return this.conn;
    // Waiting for an engine (one may be starting for this user) is part of the statement: its
    // timeout or cancel ends the wait. The connection still arrives and is kept for the next one.
    this.connecting ??= this.deps.engine.connect(this.user).then(
      (c) => {
        this.connecting = null;
        if (this.ended) {
          c.close();
          throw new PgError(SqlState.adminShutdown, 'session has ended');
        }
        this.conn = c;
        return c;
      },
      (e: unknown) => {
        this.connecting = null;
        throw e;
      },
    );
    return abortable(this.connecting, this.run?.signal);
  }

  // ---- gateway commands ----------------------------------------------------

  /** RowDescription of a command that returns rows (SHOW, FETCH, EXECUTE); null for NoData. */
  private commandFields(prepared: Prepared, formats: number[]): PgField[] | null {
    if (prepared.route.kind === 'accessControl') return adminFields(prepared.route.statement);
    const node = prepared.parsed?.node[prepared.parsed.kind];
    switch (prepared.route.kind) {
      case 'show':
        return this.showResult(prepared).fields;
      case 'fetch': {
        if (node!['ismove']) return null;
        // Described as the cursor is now; PostgreSQL answers NoData for a cursor that does not exist yet.
        const cursor = this.portals.get(node!['portalname'] as string)?.portal;
        return cursor ? cursor.fieldsFor(formats) : null;
      }
      case 'sessionFunction':
        return sessionCallFields(sessionCalls(node!, this.processId)!);
      case 'execute': {
        const target = this.statements.get(node!['name'] as string);
        if (!target) return null;
        return target.route.kind === 'query' ? target.query!.fields(formats) : this.commandFields(target, formats);
      }
      default:
        return null;
    }
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

  /** A statement the session runs itself (a query runs through its portal instead): its kind's handler. */
  private async runCommand(prepared: Prepared, out: Output, describe: boolean, bind?: BindRequest): Promise<void> {
    const kind = prepared.route.kind;
    if (kind === 'query' || kind === 'refused' || kind === 'empty') throw new PgError(SqlState.internalError, 'statement has no handler');
    return this.commands[kind](prepared, out, describe, bind);
  }

  /** One handler per kind of statement the session runs itself; made once, with the session. */
  private commandHandlers(): Record<CommandKind, CommandHandler> {
    return {
      accessControl: (p, out, describe) => this.runAccessControl(p, out, describe),
      transaction: (p, out) => this.runTransaction(fieldsOf(p), out.writer),
      set: (p, out) => this.runSet(fieldsOf(p), out.writer),
      show: (p, out, describe) => {
        this.tx.checkNotAborted();
        writeTextResult(out.writer, this.showResult(p), describe);
      },
      declare: (p, out, _describe, bind) => declareCursor(this.cursorHost, p, p.parsed!, out.writer, bind),
      fetch: (p, out, describe, bind) => fetchCursor(this.cursorHost, fieldsOf(p), out, describe, bind),
      closeCursor: (p, out) => closeCursor(this.cursorHost, fieldsOf(p), out.writer),
      copy: (p, out, _describe, bind) => {
        if (isCopyFromStdin(p.parsed!)) {
          this.tx.checkNotAborted();
          return copyFrom({ host: this.writeHost, onInternalError: this.deps.onInternalError }, p.parsed!, out);
        }
        return copyOut(this.cursorHost, p, p.parsed!, out, bind);
      },
      write: (p, out, _describe, bind) => {
        this.tx.checkNotAborted();
        return runWrite(this.writeHost, p.parsed!, out, bind, p.paramOids);
      },
      prepare: (p, out) => this.runPrepare(p, out.writer),
      execute: (p, out, describe) => this.executePrepared(fieldsOf(p), out, describe),
      analyze: (p, out) => this.runAnalyze(p, out.writer),
      sessionFunction: (p, out, describe, bind) => this.runSessionFunctions(p, out, describe, bind),
      discard: (p, out) => this.runDiscard(fieldsOf(p), out.writer),
      deallocate: (p, out) => this.runDeallocate(fieldsOf(p), out.writer),
    };
  }

  /** GRANT / REVOKE / DENY / SHOW GRANTS / CHECK ACCESS / SET TAG …, through policy/admin. */
  private async runAccessControl(prepared: Prepared, out: Output, describe: boolean): Promise<void> {
    if (prepared.route.kind !== 'accessControl') throw new PgError(SqlState.internalError, 'statement has no handler');
    const { statement } = prepared.route;
    this.tx.checkNotAborted();
    // Policies are written at once, not at COMMIT: inside a block a ROLLBACK could not take them back.
    if (this.tx.active) throw new PgError(SqlState.activeSqlTransaction, `${statement.kind.toUpperCase().replace('-', ' ')} cannot run inside a transaction block`);
    // Checked before, not after: a policy written is reported written, even if a cancel or the
    // timer arrives while it is being written (the store's own timeout bounds the call).
    this.statement().check();
    const result = await runAdmin(this.deps.admin!, statement, prepared.text, {
      user: this.user,
      roles: new Set(this.deps.identity.roles),
      defaultSchema: this.settings.searchPath(this.user)[0] ?? null,
      origin: { clientIp: this.auditSubject.clientIp, sessionId: this.auditSubject.sessionId },
      ...(this.deps.identity.credential ? { token: () => this.deps.identity.credential!.accessToken() } : {}),
    });
    writeTextResult(out.writer, result, describe && result.fields.length > 0);
  }

  /** BEGIN / COMMIT / ROLLBACK / SAVEPOINT …, and the block's writes at its end. */
  private async runTransaction(node: Fields, w: Output['writer']): Promise<void> {
    // BEGIN's characteristics are checked first: BEGIN READ WRITE fails as a whole.
    const options = transactionOptions(node['options'] as Fields[] | undefined).filter(([n]) => n !== 'transaction_deferrable');
    for (const [n, v] of options) settingDef(n).check?.(v);
    const wasActive = this.tx.active;
    await this.endWrites(node['kind'] as string, w);
    const outcome = this.tx.apply(node);
    if (outcome.notice) be.noticeResponse(w, outcome.notice);
    if (!wasActive && this.tx.active) for (const [n, v] of options) this.settings.set(n, v, true);
    let changed: string[] = [];
    if (outcome.ended) {
      this.txid = null;
      this.portals.closeTransaction(outcome.tag === 'COMMIT');
      // AND CHAIN starts the next block with the same characteristics.
      if (!node['chain']) changed = this.settings.endTransaction();
    }
    be.commandComplete(w, outcome.tag);
    for (const name of changed) be.parameterStatus(w, name, this.settings.get(name));
  }

  private runSet(node: Fields, w: Output['writer']): void {
    this.tx.checkNotAborted();
    const { changed, notice } = applySet(this.settings, node, { inBlock: this.tx.active, queried: this.tx.queried });
    if (notice) be.noticeResponse(w, notice);
    be.commandComplete(w, 'SET');
    for (const name of changed) be.parameterStatus(w, name, this.settings.get(name));
  }

  /** SQL PREPARE: the query is planned now (its errors show at PREPARE, as in PostgreSQL). */
  private async runPrepare(prepared: Prepared, w: Output['writer']): Promise<void> {
    this.tx.checkNotAborted();
    const p = preparation(prepared.parsed!);
    this.checkStatementCap(p.name);
    if (p.name === '') throw new PgError(SqlState.invalidSqlStatementName, 'invalid statement name ""');
    const inner = this.prepare(p.query.text, p.query, p.paramOids);
    await this.describeQuery(inner);
    this.statements.set(p.name, inner);
    be.commandComplete(w, 'PREPARE');
  }

  /** ANALYZE: each table probed as the user (nothing is gathered). */
  private async runAnalyze(prepared: Prepared, w: Output['writer']): Promise<void> {
    this.tx.checkNotAborted();
    for (const probe of analyzeProbes(prepared.parsed!)) {
      await this.describeQuery(this.prepare(probe.query.text, probe.query, [])).catch((e: unknown) => {
        throw analyzeFailure(e, probe);
      });
    }
    be.commandComplete(w, 'ANALYZE');
  }

  private runDiscard(node: Fields, w: Output['writer']): void {
    this.tx.checkNotAborted();
    if (node['target'] !== 'DISCARD_ALL') {
      be.commandComplete(w, node['target'] === 'DISCARD_PLANS' ? 'DISCARD PLANS' : node['target'] === 'DISCARD_SEQUENCES' ? 'DISCARD SEQUENCES' : 'DISCARD TEMP');
      return;
    }
    if (this.tx.active) {
      throw new PgError(SqlState.activeSqlTransaction, 'DISCARD ALL cannot run inside a transaction block');
    }
    const changed = this.settings.reset('ALL');
    // DISCARD ALL closes every cursor, WITH HOLD ones too.
    this.portals.closeAll();
    for (const name of [...this.statements.keys()]) if (name !== '') this.statements.delete(name);
    be.commandComplete(w, 'DISCARD ALL');
    for (const name of changed) be.parameterStatus(w, name, this.settings.get(name));
  }

  private runDeallocate(node: Fields, w: Output['writer']): void {
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
  }

  /**
   * The block's writes at COMMIT / ROLLBACK: committed (a failure ends the block
   * and is the COMMIT's error, as PostgreSQL's failed commit is), or taken back.
   */
  private async endWrites(kind: string, w: Output['writer']): Promise<void> {
    const writes = this.writer?.inBlock && this.tx.active ? this.writer : null;
    if (!writes) return;
    if (kind === 'TRANS_STMT_ROLLBACK_TO') {
      throw PgError.featureNotSupported('ROLLBACK TO SAVEPOINT after a write in the block is not supported by lakegate');
    }
    if (kind === 'TRANS_STMT_COMMIT' && this.tx.status() !== 'E') {
      try {
        await writes.commit();
      } catch (e) {
        this.tx.reset();
        this.txid = null;
        this.portals.closeTransaction(false);
        this.settings.endTransaction();
        throw e;
      }
      return;
    }
    if (kind === 'TRANS_STMT_COMMIT' || kind === 'TRANS_STMT_ROLLBACK') {
      for (const message of await writes.rollback()) be.noticeResponse(w, { severity: 'WARNING', code: '01000', message });
    }
  }

  // ---- SQL EXECUTE ---------------------------------------------------------

  /** SQL EXECUTE: the prepared query bound to the constant arguments, as text parameters. */
  private async executePrepared(node: Fields, out: Output, describe: boolean): Promise<void> {
    this.tx.checkNotAborted();
    const { name, params } = executeArguments(node);
    const target = name === '' ? undefined : this.statements.get(name);
    if (!target) throw new PgError(SqlState.invalidSqlStatementName, `prepared statement "${name}" does not exist`);
    if (target.route.kind !== 'query') {
      if (target.route.kind === 'empty') throw new PgError(SqlState.internalError, 'statement has no handler');
      if (params.length > 0) throw wrongParameterCount(name, 0, params.length);
      return this.runCommand(target, out, describe);
    }
    const expected = target.query!.paramOids.length;
    if (params.length !== expected) throw wrongParameterCount(name, expected, params.length);
    this.tx.noteQuery();
    const portal = await this.bindQuery(target, { portal: '', statement: name, paramFormats: [], params, resultFormats: [] });
    try {
      await this.runPortal(portal, 0, out, describe);
    } finally {
      releasePortal(portal);
    }
  }

  // ---- session functions ---------------------------------------------------

  /** `SELECT pg_sleep(1)`, `SELECT set_config(…)` …: one row, computed from the session's state. */
  private async runSessionFunctions(prepared: Prepared, out: Output, describe: boolean, bind?: BindRequest): Promise<void> {
    this.tx.checkNotAborted();
    const node = prepared.parsed!.node[prepared.parsed!.kind]!;
    const calls = bindSessionCalls(sessionCalls(node, this.processId)!, bind, prepared.paramOids ?? []);
    calls.forEach(checkArity);
    if (bind?.resultFormats.some((f) => f !== 0)) {
      throw PgError.featureNotSupported('session functions return text results only in lakegate');
    }
    if (describe) be.rowDescription(out.writer, sessionCallFields(calls));
    const values: (string | null)[] = [];
    for (const call of calls) values.push(await this.callSessionFunction(call, out));
    // A stop (pg_cancel_backend of this very session, a timeout) wins over the answer.
    this.statement().check();
    dataRowText(out.writer, values);
    be.commandComplete(out.writer, 'SELECT 1');
  }

  private callSessionFunction(call: SessionCall, out: Output): Promise<string | null> {
    return callSessionFunction(call, {
      settings: this.settings,
      inBlock: this.tx.active,
      user: this.user,
      backends: this.deps.backends ?? { find: () => undefined, activity: () => [this.activityRow()] },
      signal: this.statement().signal,
      blockTxid: () => (this.txid ??= nextTxid()),
      writer: out.writer,
    });
  }
}

/** PostgreSQL's answer to a write where the database is read-only (no writable catalog). */
const readOnlyRefusal = (kind: string) =>
  new PgError(SqlState.insufficientPrivilege, `permission denied: ${commandName(kind)} is not allowed through lakegate`, {
    detail: 'This database is served read-only: lakegate writes only to an Iceberg catalog.',
  });

/** How many parameters ($n) a statement has: the highest n. */
function parameterCount(stmt: ParsedStatement): number {
  let n = 0;
  walk(stmt.node, (v) => {
    if (v.kind === 'ParamRef') n = Math.max(n, Number(v.fields['number'] ?? 0));
  });
  return n;
}

const wrongParameterCount = (name: string, expected: number, got: number) =>
  new PgError(SqlState.syntaxError, `wrong number of parameters for prepared statement "${name}"`, {
    detail: `Expected ${expected} parameters but got ${got}.`,
  });
