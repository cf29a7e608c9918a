/**
 * The planner the sessions use: sql/'s query pipeline over the user's catalog,
 * with the data gate (policy/rewrite/) deciding which tables this user may
 * read and rewriting every reference into its filtered, masked derived table.
 * With an Iceberg catalog (the catalog gate), every name a statement needs is
 * first loaded as the session's user (catalog/planSnapshot.ts); a plan is
 * valid while those answers are (the catalog cache TTL) and the policies it
 * was made with are. The PostgreSQL catalog emulation and the mask macros are
 * installed on the privileged connection before the engine is locked; the
 * emulation's per-user tables are filled on each session's connection before
 * a statement that reads them.
 */
import type { Logger } from 'pino';
import { loadDuckDbCatalog, type Catalog, type EngineSql } from '../catalog/catalog.js';
import { fillActivity, installPgCatalog, installUserCatalog, type SessionTemp, type TableVisibility } from '../pgcatalog/pgCatalog.js';
import { loadSnapshot, type ExtraNeeds } from '../catalog/planSnapshot.js';
import type { CatalogService } from '../catalog/userCatalog.js';
import type { CatalogTable, CatalogView } from '../sql/catalogView.js';
import type { TempScope } from '../sql/tempTables.js';
import { ColumnTagFile } from '../policy/rewrite/columnTags.js';
import { DataGate, type EngineSource } from '../policy/rewrite/dataGate.js';
import { installMaskMacros } from '../policy/rewrite/macros.js';
import { reportQuery, reportRows } from '../policy/rewrite/report.js';
import { toDuckDbSql } from '../sql/deparse.js';
import { SqlError } from '../sql/errors.js';
import type { ProbeMiss } from '../sql/dialect/dialect.js';
import type { ParsedStatement } from '../sql/parse.js';
import { planQuery } from '../sql/query.js';
import { policyExplainTarget } from '../sql/explainPolicy.js';
import type { PgNode } from '../sql/walk.js';
import type { Config } from './config.js';
import type { PlanContext, QueryPlan, QueryPlanner } from './queryPlan.js';
import type { WriteContext } from '../sql/write/context.js';
import type { PlanFacts, WritePlan, WriteSession } from '../sql/write/plan.js';
import { planWriteStatement, writeNeeds, type WriteStatementPlan } from '../sql/write/statement.js';
import { StatementWritePolicy } from '../policy/rewrite/writePolicy.js';
import type { StorageSecrets } from './storage.js';
import type { EngineConnection } from './engine/connection.js';
import type { Auditor, RelationName, StatementAudit } from './audit/auditor.js';
import type { StatementGate } from '../policy/rewrite/dataGate.js';

export interface PlannerDeps {
  /** The policy engine in force (null: none usable, every table is missing). */
  policies: EngineSource;
  log: Logger;
  /** Test hook: fault injection into the rewriter. */
  beforeApply?: (table: CatalogTable) => void;
  /** Plans remembered across statements and sessions (0: none). Default 1000. */
  planCacheSize?: number;
  /** The Iceberg catalog, when the database is one (config.catalog). */
  catalog?: CatalogService | null;
  /** Object-store secrets (known once the engine runs); null for local warehouses. */
  storage?: () => StorageSecrets | null;
  /** The audit trail: what each planned statement read and what the data gate applied, or what it was refused. */
  audit?: Auditor;
}

/** The catalog a statement is planned over, how long it holds, and what its connection needs first. */
interface StatementCatalog {
  catalog: Catalog;
  /** A schema's namespace levels (null: the user sees no such namespace). */
  namespaceOf(schema: string): string[] | null;
  /** What the catalog lets the user load, when the statement needed it listed. */
  listing: { tables: readonly CatalogTable[]; views: readonly CatalogView[] } | null;
  valid(): boolean;
  /** Fills the session's catalog emulation, with only the tables `visibility` (the data gate) lets the user read, and the session's temporary tables. */
  setup(conn: EngineConnection, visibility: TableVisibility, temp?: SessionTemp): Promise<void>;
  /** Names the catalog did not load for this statement (refused or missing). */
  unloaded?(): RelationName[];
}

/** What planning one statement met, for the audit trail: the data gate it was planned through, and name probes that found nothing. */
interface PlanTrace {
  gate?: StatementGate;
  probeMisses: ProbeMiss[];
}

/**
 * The relations a probe answered NULL for (to_regclass of a missing or hidden name), among those the data
 * gate hid or the catalog did not load: audited as `::regclass` audits them (42P01), though the statement goes on.
 */
function probeAudit(trace: PlanTrace, base: StatementCatalog): Pick<StatementAudit, 'hidden' | 'unloaded'> {
  if (trace.probeMisses.length === 0 || !trace.gate) return { hidden: [], unloaded: [] };
  const reasonFor = (schema: string, name: string): string | undefined => {
    const miss = trace.probeMisses.find((m) => m.name === name && (m.schema === undefined || m.schema === schema));
    return miss && `${miss.error.code}: ${miss.error.message}`;
  };
  const hidden = trace.gate.hidden().flatMap(({ table, decision }) => {
    const reason = reasonFor(table.schema, table.name);
    return reason ? [{ resource: table.resource ?? null, name: { schema: table.schema, name: table.name }, decision, reason }] : [];
  });
  const unloaded = (base.unloaded?.() ?? []).flatMap((n) => {
    const reason = reasonFor(n.schema, n.name);
    return reason ? [{ ...n, reason }] : [];
  });
  return { hidden, unloaded };
}

interface CachedPlan {
  /** the parse tree the plan was made from (shared through sql/parse.ts's cache) */
  node: PgNode;
  /** every session setting the plan read, with the value it read */
  settings: [string, string | undefined][];
  plan: QueryPlan;
}

/**
 * Plans by statement text and everything a plan folds in: database, user,
 * roles, groups, search_path, backend pid, the settings it read, and (through
 * plan.valid()) the policy set and column-tag state it was made with. A
 * policy change therefore never reaches a statement through a cached plan.
 */
class PlanCache {
  private readonly entries = new Map<string, CachedPlan>();
  constructor(private readonly max: number) {}

  static key(stmt: ParsedStatement, ctx: PlanContext): string {
    // a temporary table shadows a catalog table of its name: a plan holds for the temporary tables it was made with
    const temp = JSON.stringify(ctx.tempTables?.() ?? []);
    return [stmt.text, ctx.database, ctx.user, ctx.roles.join('\u0001'), ctx.groups.join('\u0001'), ctx.searchPath.join('\u0001'), ctx.backendPid, temp].join('\u0000');
  }

  get(key: string, stmt: ParsedStatement, ctx: PlanContext): CachedPlan | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    const fresh = hit.node === stmt.node && hit.plan.valid() && hit.settings.every(([n, v]) => ctx.settings(n) === v);
    this.entries.delete(key);
    if (!fresh) return undefined;
    this.entries.set(key, hit);
    return hit;
  }

  set(key: string, entry: CachedPlan): void {
    if (this.max <= 0) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
  }
}

/** The session's temporary tables as resolution and its catalog see them: in `pg_temp_<pid>`, its own temporary schema. */
function tempScope(ctx: PlanContext): TempScope {
  return { schema: `pg_temp_${ctx.backendPid}`, tables: ctx.tempTables?.() ?? [] };
}

/** The planner of reads and writes (issue 19): `planWrite` plans one write statement as the session's user. */
export interface Planner extends QueryPlanner {
  planWrite(stmt: ParsedStatement, ctx: PlanContext & WriteSession): Promise<WritePlan>;
}

/** PostgreSQL's command of a write statement, for the audit trail of one refused before it had a plan. */
const WRITE_COMMANDS: Readonly<Record<string, string>> = {
  InsertStmt: 'INSERT', UpdateStmt: 'UPDATE', DeleteStmt: 'DELETE', MergeStmt: 'MERGE', TruncateStmt: 'TRUNCATE TABLE',
  CreateStmt: 'CREATE TABLE', CreateTableAsStmt: 'CREATE TABLE AS', SelectStmt: 'SELECT INTO', CreateSchemaStmt: 'CREATE SCHEMA',
  ViewStmt: 'CREATE VIEW', AlterTableStmt: 'ALTER TABLE', RenameStmt: 'ALTER TABLE', DropStmt: 'DROP', CommentStmt: 'COMMENT',
};

export async function createPlanner(admin: EngineSql, config: Config, deps: PlannerDeps): Promise<Planner> {
  const statementCatalog = await catalogSource(admin, config, deps);
  const dg = config.dataGate;
  await installMaskMacros((sql) => admin.run(sql), dg.maskKey);
  const gate = new DataGate(deps.policies, {
    maskPrecedence: dg.maskPrecedence,
    fence: dg.fence,
    leakproofPushdown: dg.leakproofPushdown ?? true,
    hashAvailable: dg.maskKey !== undefined,
    columnTags: dg.columnTagsFile ? new ColumnTagFile(dg.columnTagsFile, deps.log.child({ component: 'column-tags' })) : null,
    log: deps.log.child({ component: 'data-gate' }),
    ...(deps.beforeApply ? { beforeApply: deps.beforeApply } : {}),
  });
  const cache = new PlanCache(deps.planCacheSize ?? 1000);
  const planFresh = (
    stmt: ParsedStatement,
    ctx: PlanContext,
    settingsRead: Map<string, string | undefined>,
    base: StatementCatalog,
    trace: PlanTrace,
  ): QueryPlan => {
    const catalog = base.catalog;
    const statementGate = gate.begin({ user: ctx.user, roles: new Set(ctx.roles), groups: new Set(ctx.groups) });
    trace.gate = statementGate;
    const policyTarget = policyExplainTarget(stmt);
    const settings = (n: string) => {
      const v = ctx.settings(n);
      settingsRead.set(n, v);
      return v;
    };
    const probeMissed = (m: ProbeMiss) => trace.probeMisses.push(m);
    const temp = tempScope(ctx);
    const plan = planQuery(policyTarget ?? stmt, { ...ctx, settings, catalog: statementGate.catalog(catalog), probeMissed, temp }, {
      rewriteTables: (tables, qctx, tree) => statementGate.rewrite(tables, qctx, tree),
    });
    const valid = () => statementGate.valid() && base.valid();
    const setup = (conn: EngineConnection) => base.setup(conn, statementGate.visibility(), temp);
    if (policyTarget) return { sql: toDuckDbSql(reportQuery(reportRows(statementGate.applied))), explain: false, valid, setup };
    if (plan.kind === 'explain' && statementGate.hasPolicyExpressions) {
      // DuckDB's plan prints filter literals and the mask macro's key pads.
      throw new SqlError(
        '42501',
        'permission denied: EXPLAIN is not available for queries on tables with row filters or masks; EXPLAIN (POLICY) shows which policies apply',
      );
    }
    const activity = plan.readsActivity ? (ctx.activity ?? (() => [])) : undefined;
    return {
      sql: plan.sql,
      explain: plan.kind === 'explain',
      // pg_stat_activity's rows are filled before the plan is prepared, and change with every statement: such a plan
      // serves one run. (DuckDB plans with the table's statistics: refilling under a prepared plan can misread it.)
      valid: activity ? () => false : valid,
      setup: activity ? async (conn) => { await setup(conn); await fillActivity(conn, ctx.database, activity()); } : setup,
      ...(plan.resultTypes ? { resultTypes: plan.resultTypes } : {}),
      ...(plan.zeroColumns ? { zeroColumns: true as const } : {}),
    };
  };
  const audit = deps.audit?.enabled ? deps.audit : null;
  const auditStatement = (stmt: ParsedStatement, ctx: PlanContext, a: StatementAudit | null) => {
    if (!audit || !a) return;
    audit.statement({ user: ctx.user, clientIp: ctx.clientAddress ?? null, sessionId: ctx.backendPid, clientType: ctx.clientType ?? null }, stmt.text, a);
  };
  return {
    async plan(stmt, ctx) {
      const key = PlanCache.key(stmt, ctx);
      const hit = cache.get(key, stmt, ctx);
      if (hit) return hit.plan;
      const settingsRead = new Map<string, string | undefined>();
      const base = await statementCatalog(stmt, ctx);
      const trace: PlanTrace = { probeMisses: [] };
      let plan: QueryPlan;
      try {
        plan = planFresh(stmt, ctx, settingsRead, base, trace);
      } catch (e) {
        // A relation the user may not read (42P01, as if missing) or a statement refused (42501) is a decision to audit.
        const code = e instanceof SqlError ? e.code : undefined;
        if (audit && trace.gate && (code === '42P01' || code === '42501')) {
          auditStatement(stmt, ctx, {
            engine: trace.gate.engine,
            applied: [...trace.gate.applied],
            hidden: trace.gate.hidden().map(({ table, decision }) => ({ resource: table.resource ?? null, name: { schema: table.schema, name: table.name }, decision })),
            unloaded: code === '42P01' ? base.unloaded?.() ?? [] : [],
            error: { code, message: (e as Error).message },
          });
        }
        throw e;
      }
      // Audited when it runs (QueryPlan.audit at each Bind), not when it is planned or described.
      const record: StatementAudit | null = audit && trace.gate ? { engine: trace.gate.engine, applied: [...trace.gate.applied], ...probeAudit(trace, base) } : null;
      const audited: QueryPlan = record ? { ...plan, audit: () => auditStatement(stmt, ctx, record) } : plan;
      cache.set(key, { node: stmt.node, settings: [...settingsRead], plan: audited });
      return audited;
    },

    async planWrite(stmt, ctx) {
      const base = await statementCatalog(stmt, ctx, writeNeeds(stmt, ctx));
      const subject = { user: ctx.user, roles: new Set(ctx.roles), groups: new Set(ctx.groups) };
      const policy = new StatementWritePolicy(gate.begin(subject), subject);
      const wctx: WriteContext = {
        database: ctx.database,
        searchPath: ctx.searchPath,
        user: ctx.user,
        settings: (n) => ctx.settings(n),
        backendPid: ctx.backendPid,
        catalog: policy.gate.catalog(base.catalog),
        temp: tempScope(ctx),
        writeAlias: ctx.writeAlias,
        namespaceOf: (schema) => base.namespaceOf(schema),
        listing: base.listing,
        policy,
      };
      const reads = (error?: { code: string; message: string }): StatementAudit => ({
        engine: policy.gate.engine,
        applied: [...policy.gate.applied],
        hidden: policy.gate.hidden().map(({ table, decision }) => ({ resource: table.resource ?? null, name: { schema: table.schema, name: table.name }, decision })),
        unloaded: error?.code === '42P01' ? base.unloaded?.() ?? [] : [],
        ...(error ? { error } : {}),
      });
      const auditWrite = (command: string, rows: number | null, error?: { code: string; message: string }, refusedNow = false) => {
        if (!audit) return;
        const who = { user: ctx.user, clientIp: ctx.clientAddress ?? null, sessionId: ctx.backendPid, clientType: ctx.clientType ?? null };
        const read = reads(error);
        if (read.applied.length > 0 || read.hidden.length > 0 || read.unloaded.length > 0) audit.statement(who, stmt.text, read);
        audit.write(who, stmt.text, { engine: policy.gate.engine, command, checks: policy.decisions, rows, ...(error ? { error } : {}) });
        // refused before any decision named a resource (a relation that is not there): the refusal itself
        if (refusedNow && error && policy.decisions.length === 0 && read.hidden.length === 0 && read.unloaded.length === 0) audit.refused(who, ctx.database, stmt.text, command, error);
      };
      let planned: WriteStatementPlan;
      try {
        planned = planWriteStatement(stmt, wctx);
      } catch (e) {
        // A refusal (42501), a relation the user may not see (42P01): decisions to audit.
        const code = e instanceof SqlError ? e.code : undefined;
        if (code === '42P01' || code === '42501') auditWrite(WRITE_COMMANDS[stmt.kind] ?? stmt.kind, null, { code, message: (e as Error).message }, true);
        throw e;
      }
      const command = planned.kind === 'table-as' ? (stmt.kind === 'SelectStmt' ? 'SELECT INTO' : 'CREATE TABLE AS') : planned.tag;
      const facts: PlanFacts = { audit: (outcome) => auditWrite(command, outcome.rows, outcome.error) };
      return { ...planned, ...facts };
    },
  };
}

/**
 * Where a statement's tables come from: the Iceberg catalog as the session's
 * user (loaded per statement, cached per user for the TTL), or the attached
 * DuckDB database (read once at start).
 */
async function catalogSource(
  admin: EngineSql,
  config: Config,
  deps: PlannerDeps,
): Promise<(stmt: ParsedStatement, ctx: PlanContext, extra?: ExtraNeeds) => Promise<StatementCatalog>> {
  if (config.catalog && deps.catalog) {
    await installPgCatalog(admin, { database: config.catalog.database });
    const service = deps.catalog;
    const storage = deps.storage ?? (() => null);
    return async (stmt, ctx, extra) => {
      const caller = {
        user: ctx.user,
        ...(ctx.accessToken ? { token: ctx.accessToken } : {}),
        ...(ctx.renewToken ? { refresh: ctx.renewToken } : {}),
        ...(ctx.clientAddress !== undefined ? { clientAddress: ctx.clientAddress } : {}),
        sessionId: ctx.backendPid,
      };
      const generation = service.generation;
      const temporary = new Set((ctx.tempTables?.() ?? []).map((t) => t.name));
      const snapshot = await loadSnapshot(service.forUser(ctx.user), caller, stmt.node, ctx, ctx.signal?.(), extra, temporary);
      const listing = snapshot.listing;
      const secrets = storage();
      return {
        catalog: snapshot,
        namespaceOf: (schema) => snapshot.namespaceOf(schema),
        listing: listing ? { tables: listing.tables, views: listing.views } : null,
        // A GRANT / REVOKE flushes the catalog cache: plans made before it plan again.
        valid: () => snapshot.valid() && service.generation === generation,
        unloaded: () => snapshot.unloaded(),
        setup: async (conn, visibility, temp) => {
          if (secrets) for (const t of snapshot.storage) await secrets.ensure(conn, t.location, t.credentials);
          if (listing) await installUserCatalog(conn, snapshot, listing, ctx, visibility, temp);
        },
      };
    };
  }
  const databases = Object.keys(config.databases);
  if (databases.length !== 1) {
    // The pg_catalog emulation is one per engine today.
    throw new Error('lakegate serves exactly one database per process for now');
  }
  const database = databases[0]!;
  const catalog = await loadDuckDbCatalog(admin, database);
  await installPgCatalog(admin, { database });
  return async (_stmt, ctx) => {
    if (ctx.database !== database) throw new Error(`no catalog for database ${ctx.database}`);
    return {
      catalog,
      namespaceOf: (schema) => (catalog.listSchemas().includes(schema) && schema !== 'public' ? [schema] : null),
      listing: { tables: catalog.listTables(), views: [] },
      valid: () => true,
      setup: (conn, visibility, temp) => installUserCatalog(conn, catalog, catalog, ctx, visibility, temp),
    };
  };
}
