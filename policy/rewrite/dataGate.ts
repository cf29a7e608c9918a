/**
 * The data gate for one statement: the catalog as this user may see it (a
 * table without `select` is missing, exactly), and the rewrite of every
 * reference the planner resolved into its filtered, masked derived table.
 *
 * One statement uses one policy engine throughout (the one in force when it
 * began), so a plan never mixes two policy sets; the plan is valid only while
 * that engine (and the column-tag state) is still the one in force.
 *
 * Failing closed: no engine → every table missing; a decision that throws →
 * the table missing (and logged); anything that throws while rewriting → the
 * statement fails with 42501, the unrewritten text never reaches the engine.
 */
import type { Logger } from 'pino';
import type { PolicyEngine } from '../ranger/engine.js';
import type { CatalogTable, RelationCatalog } from '../../sql/catalogView.js';
import type { DialectContext } from '../../sql/dialect/dialect.js';
import { SqlError } from '../../sql/errors.js';
import type { TableReference } from '../../sql/resolve.js';
import { replaceNode, type PgNode } from '../../sql/walk.js';
import { compileTable, fromItem, SOURCE_ALIAS, type CompiledTable, type FenceMode } from './apply.js';
import type { ColumnTagSource } from './columnTags.js';
import { decideTable, type ColumnTags, type MaskPrecedence, type Subject, type TableDecision } from './decide.js';
import { FenceAnalysis, type ColumnInfo } from './fence.js';
import { compileMetadataTable } from './metadataTables.js';
import { relationPrivileges, schemaCreate, type RelationPrivileges } from './privileges.js';
import { valueTypeOf } from './leakproof.js';

export interface DataGateOptions {
  maskPrecedence: MaskPrecedence;
  fence: FenceMode;
  /** false: every filtered reference is fenced, whatever reads it (default true: only those a non-leakproof predicate may read). */
  leakproofPushdown?: boolean;
  /** A mask key is configured (MASK_HASH can be built). */
  hashAvailable: boolean;
  /** Column tags for tables whose catalog carries none. */
  columnTags: ColumnTagSource | null;
  log: Logger;
  /** Test hook: runs while each reference is rewritten (fault injection). */
  beforeApply?: (table: CatalogTable) => void;
}

export interface EngineSource {
  current(): PolicyEngine | null;
}

interface Entry {
  decision: TableDecision;
  compiled?: CompiledTable;
}

/** A table the statement reads, with what the gate decided and built for it. */
export interface AppliedTable {
  table: CatalogTable;
  decision: Extract<TableDecision, { visible: true }>;
  compiled: CompiledTable;
  /** the reference got the fenced form (false: unfenced, or nothing to fence) */
  fenced: boolean;
}

const MAX_SUBJECTS_PER_TABLE = 1000;

export class DataGate {
  /** Per engine, per table object, per subject: decisions (and their compiled form) are pure in these. */
  private readonly memo = new WeakMap<PolicyEngine, WeakMap<CatalogTable, Map<string, Entry>>>();

  constructor(
    private readonly engines: EngineSource,
    readonly opts: DataGateOptions,
  ) {}

  /** Start a statement for a subject: fixes the engine and tag state it is planned with. */
  begin(subject: Subject): StatementGate {
    return new StatementGate(this, this.engines.current(), subject, this.opts.columnTags?.version ?? 0);
  }

  get currentEngine(): PolicyEngine | null {
    return this.engines.current();
  }

  /** The memo for an engine whose decisions are stable; none for time-dependent policy sets. */
  entries(engine: PolicyEngine | null, table: CatalogTable): Map<string, Entry> | null {
    if (!engine || engine.isContextDependent) return null;
    let byTable = this.memo.get(engine);
    if (!byTable) {
      byTable = new WeakMap();
      this.memo.set(engine, byTable);
    }
    let bySubject = byTable.get(table);
    if (!bySubject) {
      bySubject = new Map();
      byTable.set(table, bySubject);
    }
    if (bySubject.size > MAX_SUBJECTS_PER_TABLE) bySubject.clear();
    return bySubject;
  }
}

export class StatementGate {
  readonly applied: AppliedTable[] = [];
  private readonly subjectKey: string;
  private readonly local = new Map<CatalogTable, Entry>();

  constructor(
    private readonly gate: DataGate,
    readonly engine: PolicyEngine | null,
    readonly subject: Subject,
    private readonly tagVersion: number,
  ) {
    this.subjectKey = `${subject.user}\u0000${[...subject.roles].join('\u0001')}\u0000${[...subject.groups].join('\u0001')}\u0000${tagVersion}`;
  }

  /** False once the policy set (or the column-tag state) this statement was planned with is no longer in force. */
  valid(): boolean {
    const engine = this.gate.currentEngine;
    if (engine !== this.engine) return false;
    if (engine?.isContextDependent) return false;
    return (this.gate.opts.columnTags?.version ?? 0) === this.tagVersion;
  }

  /** The relation catalog as this user may see it. */
  catalog(inner: RelationCatalog): RelationCatalog {
    return {
      listSchemas: () => inner.listSchemas(),
      getTable: (schema, name) => {
        const table = inner.getTable(schema, name);
        if (!table) return undefined;
        return this.entry(table)?.decision.visible ? table : undefined;
      },
      // A view is no security boundary: its base tables come back through getTable above.
      ...(inner.getView ? { getView: (schema: string, name: string) => inner.getView!(schema, name) } : {}),
    };
  }

  /**
   * Whether the subject may read a table, for listings (pg_class, information_schema):
   * keyed by the policy set and tag state it was decided with.
   */
  visibility(): {
    keys: readonly unknown[];
    visible: (table: CatalogTable) => boolean;
    privileges: (table: CatalogTable) => RelationPrivileges;
    schemaCreate: (schema: string) => boolean;
  } {
    // Decisions that depend on the time or the request are never reused: a fresh key each time.
    const keys = this.engine?.isContextDependent ? [{}] : [this.engine, this.tagVersion];
    return {
      keys,
      visible: (table) => this.entry(table)?.decision.visible ?? false,
      privileges: (table) => relationPrivileges(this.engine, this.subject, table, this.entry(table)?.decision ?? null),
      schemaCreate: (schema) => schemaCreate(this.engine, this.subject, schema),
    };
  }

  /** The table's column tags as the data gate decides by them (its own, or the configured file's; null: unreadable). */
  tagsOf(table: CatalogTable): ColumnTags | null | undefined {
    return table.columnTags !== undefined ? table.columnTags : this.gate.opts.columnTags?.tagsFor(table.resource);
  }

  /** What the gate decided for the subject on a table (null: the decision failed, the table counts as missing). */
  decisionFor(table: CatalogTable): TableDecision | null {
    return this.entry(table)?.decision ?? null;
  }

  private entry(table: CatalogTable): Entry | null {
    const hit = this.local.get(table);
    if (hit) return hit;
    const memo = this.gate.entries(this.engine, table);
    let entry = memo?.get(this.subjectKey);
    if (!entry) {
      try {
        // A metadata table (orders$files) is decided as its base table: the same read right, the same columns.
        const decided = table.metadataOf?.base ?? table;
        const tags = this.tagsOf(decided);
        entry = { decision: decideTable(this.engine, this.subject, decided, tags, { maskPrecedence: this.gate.opts.maskPrecedence }) };
      } catch (e) {
        // Answered like a missing table: an error here must not tell that the table exists.
        this.gate.opts.log.error({ event: 'data-gate', table: `${table.schema}.${table.name}`, err: (e as Error).message }, 'policy decision failed');
        return null;
      }
      memo?.set(this.subjectKey, entry);
    }
    this.local.set(table, entry);
    return entry;
  }

  /** planQuery's rewriteTables hook: every reference becomes its derived table, or the statement fails. */
  rewrite(tables: TableReference[], ctx: DialectContext, tree: PgNode): void {
    const compiled = new Map<TableReference, { entry: Entry; compiled: CompiledTable }>();
    for (const ref of tables) {
      this.guarded(ref, () => {
        const entry = this.entry(ref.table);
        if (!entry || !entry.decision.visible) throw new Error('a table the user may not read was resolved');
        this.gate.opts.beforeApply?.(ref.table);
        entry.compiled ??= this.compile(ref.table, entry.decision, ctx);
        compiled.set(ref, { entry, compiled: entry.compiled });
      });
    }
    // Read before any reference is replaced: the analysis needs the statement as the user wrote it.
    const fenced = this.fencedReferences(tables, compiled, tree);
    for (const ref of tables) {
      this.guarded(ref, () => {
        const { entry, compiled: c } = compiled.get(ref)!;
        const alias = ref.node['RangeVar']?.['alias'] ?? ref.node['RangeFunction']?.['alias'] ?? { aliasname: ref.alias };
        const fence = fenced.has(ref);
        replaceNode(ref.node, fromItem(c, alias, fence));
        this.applied.push({ table: ref.table, decision: entry.decision as Extract<TableDecision, { visible: true }>, compiled: c, fenced: fence && c.unfenced !== null });
      });
    }
  }

  private guarded(ref: TableReference, step: () => void): void {
    try {
      step();
    } catch (e) {
      // A metadata table the user may read whose metadata could not be read (or is too large): said as it is.
      if (ref.table.metadataOf && e instanceof SqlError) throw e;
      this.gate.opts.log.error(
        { event: 'data-gate', table: `${ref.table.schema}.${ref.table.name}`, err: (e as Error).message },
        'policy rewrite failed: statement refused',
      );
      throw new SqlError('42501', `permission denied: the data policies of relation "${ref.schema}.${ref.name}" could not be applied`);
    }
  }

  /** The references that keep the fence: all of them, unless leakproof pushdown is on and the analysis clears some. */
  private fencedReferences(tables: TableReference[], compiled: Map<TableReference, { compiled: CompiledTable }>, tree: PgNode): Set<TableReference> {
    const candidates = tables.filter((r) => compiled.get(r)!.compiled.unfenced !== null);
    const all = new Set(tables);
    if (candidates.length === 0 || this.gate.opts.leakproofPushdown === false) return all;
    try {
      const byNode = new Map<object, TableReference>(tables.map((r) => [r.node, r]));
      const analysis = new FenceAnalysis<TableReference>((n) => byNode.get(n), (r) => columnInfo(r.table, compiled.get(r)!.compiled), tables);
      analysis.run(tree);
      return analysis.fenced;
    } catch (e) {
      // Fail closed, and keep the statement working: every reference keeps its fence.
      this.gate.opts.log.error({ event: 'data-gate', err: (e as Error).message }, 'leakproof analysis failed: every reference fenced');
      return all;
    }
  }

  private compile(table: CatalogTable, decision: Extract<TableDecision, { visible: true }>, ctx: DialectContext): CompiledTable {
    if (table.metadataOf) return compileMetadataTable(table, table.metadataOf, decision);
    // Policy expressions name columns as the policies do (an older snapshot's columns by their current names).
    const decided = decision.columns.filter((c): c is typeof c & { policyName: string } => c.policyName !== null);
    const compiled = compileTable(table, decision, {
      // as the scan holds them: a json / jsonb column is the string it is stored as
      columns: new Map(decided.map((c) => [c.policyName, c.pgType ? 'VARCHAR' : c.duckType])),
      sourceNames: new Map(decided.filter((c) => c.policyName !== c.name).map((c) => [c.policyName, c.name])),
      source: SOURCE_ALIAS,
      user: this.subject.user,
      roles: this.subject.roles,
      // A policy's expression means the same for every session: its timestamps and dates are read in UTC whatever
      // TimeZone the user set (else `ts >= '2024-01-01'` in a row filter would move with a setting the user controls).
      dialect: { ...ctx, settings: (name) => (name.toLowerCase() === 'timezone' ? 'UTC' : ctx.settings(name)) },
      mask: { hashAvailable: this.gate.opts.hashAvailable },
    }, this.gate.opts.fence);
    const log = this.gate.opts.log;
    for (const err of compiled.filterErrors) log.error({ event: 'data-gate', table: `${table.schema}.${table.name}` }, `${err}: no rows shown`);
    for (const c of compiled.columns) {
      if (c.state === 'restricted' && c.reason?.includes('cannot be built')) {
        log.error({ event: 'data-gate', table: `${table.schema}.${table.name}`, column: c.name }, `${c.reason}: column restricted`);
      }
    }
    return compiled;
  }

  /** Tables this statement looked up that the data gate hid from the user (for the audit trail). */
  hidden(): { table: CatalogTable; decision: Extract<TableDecision, { visible: false }> }[] {
    const out: { table: CatalogTable; decision: Extract<TableDecision, { visible: false }> }[] = [];
    for (const [table, entry] of this.local) if (!entry.decision.visible) out.push({ table, decision: entry.decision });
    return out;
  }

  /** Some table the statement reads has a row filter or a mask: its text must not be shown (EXPLAIN). */
  get hasPolicyExpressions(): boolean {
    return this.applied.some((a) => a.compiled.hasPolicyExpressions);
  }
}

/** How the unfenced derived table shows each column, for the analysis. */
function columnInfo(table: CatalogTable, compiled: CompiledTable): Map<string, ColumnInfo> {
  const state = new Map(compiled.columns.map((c) => [c.name, c.state]));
  return new Map(
    table.columns.map((c) => {
      const s = state.get(c.name);
      return [c.name.toLowerCase(), { type: valueTypeOf(c.duckType), exposure: s === 'raw' ? 'raw' : s === 'restricted' ? 'constant' : 'masked' }];
    }),
  );
}
