/**
 * A session's writes (issue 19): the plans the write planner made, carried
 * out on the session's engine connection and through the Iceberg catalog, as
 * the session's user.
 *
 * The engine reaches the catalog through the loopback endpoint
 * (catalog/loopback/), attached under `writeAlias` on each of the session's
 * engine connections: DuckDB's iceberg extension writes the files and commits
 * each table, the endpoint makes every catalog call as the user. What DuckDB
 * cannot do (schemas, views, renames, drops with purge, comments, the table
 * properties lineage and kept types set) the session does through the
 * catalog itself.
 *
 * Transactions: data written in a block stays in the engine's transaction
 * until COMMIT, where DuckDB commits each table it wrote (one catalog commit
 * per table; a concurrent change is 40001). A statement that changes
 * definitions first commits the data written before it, then is committed
 * itself, and leaves its inverse in the undo log: ROLLBACK takes the block's
 * data back from the engine and applies the undo log, newest first. Drops in a
 * block rename the table out of the way and purge it at COMMIT. Outside a
 * block every statement commits on its own.
 */
import type { Logger } from 'pino';
import type { DuckDBType } from '@duckdb/node-api';
import type { Caller, Namespace, TableCommit, WritableCatalog } from '../../catalog/iceberg/api.js';
import { COLUMN_TAGS_PROPERTY, PG_TYPES_PROPERTY } from '../../catalog/iceberg/metadata.js';
import type { LoopbackCatalog, OpenedSession } from '../../catalog/loopback/server.js';
import type { LoopbackEvent } from '../../catalog/loopback/session.js';
import type { CatalogService } from '../../catalog/userCatalog.js';
import { PgError, SqlState } from '../../protocol/errors.js';
import type { CatalogWrite, EngineWrite, TableAsWrite, TempTable, WritePlan } from '../../sql/write/plan.js';
import type { EngineConnection } from '../engine/connection.js';
import { quoteIdent, quoteLiteral } from '../engine/quote.js';
import type { WireParam } from '../engine/wire.js';
import { icebergColumnFor } from '../../sql/write/types.js';
import { duckTypeName } from '../rows/describe.js';
import { schemaBack, undoStep, type UndoStep } from './undo.js';
import { runCatalogOp } from './catalogOps.js';

/** The table property that keeps each column's PostgreSQL type where the engine's does not say it (jsonb stored as a string). */

export interface WriteDeps {
  loopback: LoopbackCatalog;
  catalog: WritableCatalog;
  /** The catalog's name as ATTACH gives it (the endpoint serves one catalog). */
  catalogName: string;
  /** Every user's catalog answers: forgotten for what a write changed. */
  service: CatalogService;
  log: Logger;
}

export interface WriteOutcome {
  tag: string;
  notices: string[];
  /** Rows the statement changed, where it says. */
  rows: number | null;
}

interface Ident {
  namespace: Namespace;
  name: string;
}

const key = (t: Ident) => JSON.stringify([t.namespace, t.name]);
const dotted = (t: Ident) => [...t.namespace, t.name].join('.');

/**
 * 40001 for a concurrent change, 42501 for a write the catalog refused: what a failed DuckDB statement or commit means.
 * A refused ALTER is worded as PostgreSQL refuses a non-owner.
 */
function commitFailure(e: Extract<LoopbackEvent, { kind: 'commit-failed' }>, plan: WritePlan | undefined): PgError {
  if (e.conflict) {
    return new PgError(SqlState.serializationFailure, 'could not serialize access due to concurrent update', {
      detail: `Another transaction committed to ${dotted(e.table)} first; nothing of this one was committed to it.`,
      hint: 'Run the transaction again.',
    });
  }
  if (e.status === 403) {
    const altering = plan?.kind === 'engine' && plan.ddl && plan.tag === 'ALTER TABLE';
    return new PgError(SqlState.insufficientPrivilege, altering ? `must be owner of table ${e.table.name}` : `permission denied for table ${e.table.name}`);
  }
  return new PgError(SqlState.ioError, `the catalog refused the commit to ${dotted(e.table)}`, { detail: e.message });
}

/** A table DuckDB asked the catalog to create and the catalog refused, in PostgreSQL's words for the same case. */
function createFailure(e: Extract<LoopbackEvent, { kind: 'create-failed' }>): PgError {
  const schema = e.table.namespace.join('.');
  switch (e.status) {
    case 403:
      return new PgError(SqlState.insufficientPrivilege, `permission denied for schema ${schema}`);
    case 404:
      return new PgError(SqlState.invalidSchemaName, `schema "${schema}" does not exist`);
    case 409:
      return new PgError(SqlState.duplicateTable, `relation "${e.table.name}" already exists`);
    default:
      return new PgError(SqlState.ioError, `the catalog refused to create ${dotted(e.table)}`, { detail: e.message });
  }
}

export class SessionWrites {
  readonly writeAlias: string;
  private opened: OpenedSession | null = null;
  private readonly attached = new WeakSet<EngineConnection>();
  private readonly temps = new Map<string, TempTable>();
  /** Lineage tags of the temporary tables' columns, as the plans that filled them said (kept for the table's life). */
  private readonly tempTags = new Map<string, Record<string, string[]>>();
  /** The connection whose engine transaction holds this block's data (null: none open). */
  private duck: EngineConnection | null = null;
  private block = false;
  private undo: UndoStep[] = [];
  private purgeAtCommit: Ident[] = [];
  /** Properties to merge into tables once their data is committed: lineage tags, kept PostgreSQL types. */
  private readonly pendingProperties = new Map<string, Ident & { tags: Record<string, string[]>; pgTypes: Record<string, string> }>();

  constructor(
    private readonly deps: WriteDeps,
    private readonly caller: () => Caller,
    pid: number,
  ) {
    this.writeAlias = `lg_write_${pid}`;
  }

  tempTables(): readonly TempTable[] {
    return [...this.temps.values()];
  }

  /** What the session's engine holds that a new engine would not (its temporary tables, an open transaction). */
  holdsEngineState(): boolean {
    return this.temps.size > 0 || this.duck !== null;
  }

  /** A block starts (BEGIN, or a message of several statements). */
  beginBlock(): void {
    this.block = true;
  }

  get inBlock(): boolean {
    return this.block;
  }

  /** Carry out one planned write. */
  async run(plan: WritePlan, conn: EngineConnection, params: WireParam[]): Promise<WriteOutcome> {
    let outcome: WriteOutcome;
    try {
      switch (plan.kind) {
        case 'engine':
          outcome = await this.engineWrite(plan, conn, params);
          break;
        case 'table-as':
          outcome = await this.tableAs(plan, conn, params);
          break;
        case 'catalog':
          outcome = await this.catalogWrite(plan, conn);
          break;
      }
    } catch (e) {
      const err = this.explain(e, plan);
      plan.audit?.({ rows: null, error: { code: err instanceof PgError ? err.code : 'XX000', message: (err as Error).message } });
      throw err;
    }
    plan.audit?.({ rows: outcome.rows });
    return outcome;
  }

  /** COMMIT: the engine commits the block's data, dropped tables are purged, nothing is left to take back. */
  async commit(): Promise<void> {
    try {
      await this.commitData();
      for (const t of this.purgeAtCommit) {
        await this.deps.catalog.dropTable(this.caller(), t.namespace, t.name, { purge: true });
        this.deps.service.changed(t.namespace, t.name);
      }
    } catch (e) {
      // The block failed as a whole: what it did before is taken back too.
      await this.rollback();
      throw this.explain(e);
    } finally {
      this.purgeAtCommit = [];
    }
    this.undo = [];
    this.block = false;
  }

  /** ROLLBACK: the engine drops the block's data; what was committed on the way is taken back. Returns warnings for what could not be. */
  async rollback(): Promise<string[]> {
    const warnings: string[] = [];
    if (this.duck) {
      const conn = this.duck;
      this.duck = null;
      this.pendingProperties.clear();
      await conn.run('ROLLBACK').catch(() => undefined);
      await this.refreshTemps(conn).catch(() => undefined);
    }
    for (const step of this.undo.reverse()) {
      const w = await undoStep(this.deps.catalog, this.caller(), step);
      if (w) warnings.push(w);
      this.forget(step);
    }
    this.undo = [];
    this.purgeAtCommit = [];
    this.block = false;
    for (const w of warnings) this.deps.log.warn({ undo: w }, 'rollback could not take a step back');
    return warnings;
  }

  /** The session ends: its engine transaction is dropped, its catalog endpoint closed (temporary tables go with the connection). */
  async close(conn: EngineConnection | null): Promise<void> {
    if (this.duck) await this.rollback().catch(() => undefined);
    if (conn && !conn.lost && this.attached.has(conn)) await conn.run(`DETACH ${quoteIdent(this.writeAlias)}`).catch(() => undefined);
    await this.opened?.close();
    this.opened = null;
  }

  /** The engine this session's connection was on is gone: its temporary tables and engine transaction with it. */
  engineLost(): void {
    this.temps.clear();
    this.duck = null;
  }

  // ---- the three kinds --------------------------------------------------------

  private async engineWrite(plan: EngineWrite, conn: EngineConnection, params: WireParam[]): Promise<WriteOutcome> {
    const iceberg = plan.target.kind === 'iceberg';
    if (iceberg) await this.attach(conn);
    if (plan.ddl && iceberg) {
      await this.commitData();
      const before = plan.tag === 'ALTER TABLE' ? await this.deps.catalog.loadTable(this.caller(), plan.target.namespace, plan.target.name) : null;
      await conn.run(plan.sql, params);
      this.afterCommit();
      if (this.block) {
        if (plan.tag === 'CREATE TABLE') this.undo.push({ kind: 'drop-table', namespace: plan.target.namespace, name: plan.target.name });
        else if (before?.raw) this.undo.push(schemaBack(plan.target, before.raw));
      }
      if (plan.created) this.queueProperties(plan.target, Object.fromEntries(plan.created.filter((c) => c.tags?.length).map((c) => [c.name, c.tags!])), Object.fromEntries(plan.created.filter((c) => c.pgType).map((c) => [c.name, c.pgType!])));
      if (plan.columnTags) this.queueProperties(plan.target, plan.columnTags, {});
      await this.applyProperties();
      return { tag: plan.tag, notices: [], rows: null };
    }
    if (this.block && !this.duck) {
      await conn.run('BEGIN');
      this.duck = conn;
    }
    const changed = await conn.run(plan.sql, params);
    if (plan.target.kind === 'temp') {
      this.tagTemp(plan.target.name, plan.columnTags);
      await this.refreshTemps(conn);
    }
    if (plan.columnTags && Object.keys(plan.columnTags).length > 0 && iceberg) this.queueProperties(plan.target, plan.columnTags, {});
    if (!this.block) {
      this.afterCommit();
      await this.applyProperties();
    }
    const rows = plan.counts ? (changed ?? 0) : null;
    return { tag: rows === null ? plan.tag : plan.tag === 'INSERT' ? `INSERT 0 ${rows}` : `${plan.tag} ${rows}`, notices: [], rows };
  }

  /** CREATE TABLE … AS: the query's types from the engine, the table made with Iceberg's, then filled in one engine transaction. */
  private async tableAs(plan: TableAsWrite, conn: EngineConnection, params: WireParam[]): Promise<WriteOutcome> {
    const probe = await conn.prepare(plan.querySql);
    let types: DuckDBType[];
    try {
      types = Array.from({ length: probe.columnCount }, (_, c) => probe.columnType(c));
    } finally {
      probe.destroy();
    }
    if (types.length !== plan.columnNames.length) {
      throw new PgError(SqlState.syntaxError, 'CREATE TABLE AS specifies too many column names');
    }
    const names = plan.columnNames.map(quoteIdent).join(', ');
    const source = `SELECT * FROM (${plan.querySql}) AS lg_source(${names})${plan.withData ? '' : ' LIMIT 0'}`;
    if (plan.target.kind === 'temp') {
      if (this.block && !this.duck) {
        await conn.run('BEGIN');
        this.duck = conn;
      }
      await conn.run(`CREATE TEMP TABLE ${plan.target.engineName} AS ${source}`, params);
      // DuckDB counts no rows for a CREATE TABLE AS: the new table holds exactly the rows it made
      const changed = plan.withData ? Number((await conn.rows(`SELECT count(*) AS n FROM ${plan.target.engineName}`))[0]?.['n'] ?? 0) : 0;
      this.tempTags.delete(plan.target.name);
      this.tagTemp(plan.target.name, plan.columnTags);
      await this.refreshTemps(conn);
      return this.tableAsOutcome(plan, changed);
    }
    await this.attach(conn);
    const columns = plan.columnNames.map((name, i) => `${quoteIdent(name)} ${icebergColumnFor(name, duckTypeName(types[i]!), plan.pgTypes[i])}`);
    await this.commitData();
    await conn.run('BEGIN');
    let changed: number | null;
    try {
      await conn.run(`CREATE TABLE ${plan.target.engineName} (${columns.join(', ')})`);
      changed = await conn.run(`INSERT INTO ${plan.target.engineName} ${source}`, params);
      await conn.run('COMMIT');
    } catch (e) {
      await conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
    this.afterCommit();
    if (this.block) this.undo.push({ kind: 'drop-table', namespace: plan.target.namespace, name: plan.target.name });
    const pgTypes: Record<string, string> = {};
    plan.columnNames.forEach((n, i) => {
      // the planner says jsonb; DuckDB's JSON is PostgreSQL's json
      const t = plan.pgTypes[i] ?? (duckTypeName(types[i]!) === 'JSON' ? 'json' : undefined);
      if (t === 'json' || t === 'jsonb') pgTypes[n] = t;
    });
    this.queueProperties(plan.target, plan.columnTags ?? {}, pgTypes);
    await this.applyProperties();
    return this.tableAsOutcome(plan, changed);
  }

  private tableAsOutcome(plan: TableAsWrite, changed: number | null): WriteOutcome {
    // WITH NO DATA: PostgreSQL answers CREATE TABLE AS, without a count
    if (!plan.withData) return { tag: 'CREATE TABLE AS', notices: [], rows: 0 };
    const rows = changed ?? 0;
    return { tag: `${plan.tag} ${rows}`, notices: [], rows };
  }

  private async catalogWrite(plan: CatalogWrite, conn: EngineConnection): Promise<WriteOutcome> {
    const notices = [...(plan.notices ?? []), ...(plan.notice ? [plan.notice] : [])];
    const op = plan.op;
    if (op.op === 'nothing') return { tag: plan.tag, notices, rows: null };
    const temp = (op.op === 'drop' || op.op === 'rename' || op.op === 'comment') && 'target' in op && op.target.kind === 'temp';
    if (op.op === 'drop' && op.targets.every((t) => t.kind === 'temp')) {
      for (const t of op.targets) await conn.run(`DROP TABLE ${t.engineName}`);
      await this.refreshTemps(conn);
      return { tag: plan.tag, notices, rows: null };
    }
    if (op.op === 'rename' && op.from.kind === 'temp') {
      await conn.run(`ALTER TABLE ${op.from.engineName} RENAME TO ${quoteIdent(op.to.name)}`);
      const tags = this.tempTags.get(op.from.name);
      this.tempTags.delete(op.from.name);
      this.tagTemp(op.to.name, tags);
      await this.refreshTemps(conn);
      return { tag: plan.tag, notices, rows: null };
    }
    if (temp) throw PgError.featureNotSupported('COMMENT ON a temporary table is not supported by lakegate');
    await this.commitData();
    await runCatalogOp(op, {
      catalog: this.deps.catalog,
      catalogName: this.deps.catalogName,
      caller: this.caller(),
      service: this.deps.service,
      conn,
      undo: this.block ? this.undo : null,
      purgeAtCommit: this.purgeAtCommit,
      refreshTemps: () => this.refreshTemps(conn),
    });
    return { tag: plan.tag, notices, rows: null };
  }

  // ---- engine transaction and the catalog endpoint ----------------------------

  /** The session's loopback endpoint, attached on this connection (once per connection). */
  private async attach(conn: EngineConnection): Promise<void> {
    if (this.attached.has(conn)) return;
    this.opened ??= this.deps.loopback.open(this.caller());
    await conn.run(`ATTACH ${quoteLiteral(this.deps.catalogName)} AS ${quoteIdent(this.writeAlias)} (TYPE iceberg, ENDPOINT ${quoteLiteral(this.opened.url)}, AUTHORIZATION_TYPE 'none')`);
    this.attached.add(conn);
  }

  /** The block's data written so far is committed (before a statement that changes definitions, and at COMMIT). */
  private async commitData(): Promise<void> {
    const conn = this.duck;
    if (!conn) return;
    this.duck = null;
    try {
      await conn.run('COMMIT');
    } catch (e) {
      this.pendingProperties.clear();
      await conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
    this.afterCommit();
    await this.applyProperties();
  }

  /** What the endpoint saw committed: every user's answers for those tables are asked again; in a block, each commit's inverse is kept. */
  private afterCommit(): void {
    for (const e of this.opened?.takeEvents() ?? []) {
      switch (e.kind) {
        case 'table-committed':
          this.deps.service.changed(e.table.namespace, e.table.name);
          if (this.block && !e.created && e.snapshots.length > 0) {
            const first = e.snapshots[0]!;
            const last = e.snapshots[e.snapshots.length - 1]!;
            this.undo.push({
              kind: 'commit',
              namespace: e.table.namespace,
              name: e.table.name,
              what: 'the data written',
              commit: {
                requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': last.snapshotId }],
                updates:
                  first.parentSnapshotId === null
                    ? [{ action: 'remove-snapshot-ref', 'ref-name': 'main' }]
                    : [{ action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': first.parentSnapshotId }],
              },
            });
          }
          break;
        case 'namespace-created':
        case 'namespace-dropped':
          this.deps.service.changed(e.namespace);
          break;
        case 'table-dropped':
          this.deps.service.changed(e.table.namespace, e.table.name);
          break;
        case 'renamed':
          this.deps.service.changed(e.from.namespace, e.from.name);
          this.deps.service.changed(e.to.namespace, e.to.name);
          break;
        default:
          break;
      }
    }
  }

  /** A failed engine statement or commit, in PostgreSQL's words when the endpoint says what happened. */
  private explain(e: unknown, plan?: WritePlan): unknown {
    for (const ev of this.opened?.takeEvents() ?? []) {
      if (ev.kind === 'commit-failed') return commitFailure(ev, plan);
      if (ev.kind === 'create-failed') return createFailure(ev);
    }
    return e;
  }

  /** Tags a temporary table's columns take on (merged, never removed). */
  private tagTemp(name: string, tags: Record<string, string[]> | undefined): void {
    if (!tags || Object.keys(tags).length === 0) return;
    const have = this.tempTags.get(name) ?? {};
    for (const [c, list] of Object.entries(tags)) have[c] = [...new Set([...(have[c] ?? []), ...list])].sort();
    this.tempTags.set(name, have);
  }

  private queueProperties(t: Ident, tags: Record<string, string[]>, pgTypes: Record<string, string>): void {
    if (Object.keys(tags).length === 0 && Object.keys(pgTypes).length === 0) return;
    const k = key(t);
    const have = this.pendingProperties.get(k) ?? { namespace: t.namespace, name: t.name, tags: {}, pgTypes: {} };
    for (const [c, list] of Object.entries(tags)) have.tags[c] = [...new Set([...(have.tags[c] ?? []), ...list])];
    Object.assign(have.pgTypes, pgTypes);
    this.pendingProperties.set(k, have);
  }

  /** Lineage tags and kept types merged into the tables' properties (tags are only ever added). */
  private async applyProperties(): Promise<void> {
    const caller = this.caller();
    for (const [k, p] of [...this.pendingProperties]) {
      this.pendingProperties.delete(k);
      const loaded = await this.deps.catalog.loadTable(caller, p.namespace, p.name);
      const raw = loaded.raw!;
      const props = (raw['properties'] as Record<string, string> | undefined) ?? {};
      const updates: Record<string, string> = {};
      if (Object.keys(p.tags).length > 0) {
        const tags = parseJsonRecord<string[]>(props[COLUMN_TAGS_PROPERTY]);
        for (const [c, list] of Object.entries(p.tags)) tags[c] = [...new Set([...(tags[c] ?? []), ...list])].sort();
        updates[COLUMN_TAGS_PROPERTY] = JSON.stringify(tags);
      }
      if (Object.keys(p.pgTypes).length > 0) updates[PG_TYPES_PROPERTY] = JSON.stringify({ ...parseJsonRecord<string>(props[PG_TYPES_PROPERTY]), ...p.pgTypes });
      const commit: TableCommit = { requirements: [{ type: 'assert-table-uuid', uuid: raw['table-uuid'] }], updates: [{ action: 'set-properties', updates }] };
      await this.deps.catalog.commitTable(caller, p.namespace, p.name, commit);
      this.deps.service.changed(p.namespace, p.name);
    }
  }

  /** The session's temporary tables as the engine holds them now. */
  private async refreshTemps(conn: EngineConnection): Promise<void> {
    const rows = await conn.rows(
      "SELECT table_name, column_name, data_type, is_nullable FROM duckdb_columns() WHERE database_name = 'temp' AND schema_name = 'main' AND NOT starts_with(table_name, 'lg_') ORDER BY table_name, column_index",
    );
    this.temps.clear();
    for (const r of rows) {
      const name = String(r['table_name']);
      let t = this.temps.get(name);
      if (!t) this.temps.set(name, (t = { name, columns: [] }));
      const column = String(r['column_name']);
      const tags = this.tempTags.get(name)?.[column];
      t.columns.push({ name: column, duckType: String(r['data_type']), nullable: r['is_nullable'] === true, ...(tags?.length ? { tags } : {}) });
    }
    for (const name of [...this.tempTags.keys()]) if (!this.temps.has(name)) this.tempTags.delete(name);
  }

  private forget(step: UndoStep): void {
    if (step.kind === 'rename') {
      this.deps.service.changed(step.from.namespace, step.from.name);
      this.deps.service.changed(step.to.namespace, step.to.name);
    } else if (step.kind === 'drop-namespace') this.deps.service.changed(step.namespace);
    else this.deps.service.changed(step.namespace, step.name);
  }
}

function parseJsonRecord<T>(text: string | undefined): Record<string, T> {
  if (text === undefined) return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return Object.assign(Object.create(null), v) as Record<string, T>;
  } catch {
    // an unreadable property is replaced by what the write computed
  }
  return {};
}
