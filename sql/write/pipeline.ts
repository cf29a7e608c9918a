/**
 * The read pipeline (sql/query.ts) over a write statement: the allowlist,
 * output names, relation resolution, the PostgreSQL → DuckDB dialect, the
 * data gate's rewrite of every table the statement reads, and printing with
 * the re-parse check. What a write reads — a CREATE TABLE AS query, INSERT …
 * SELECT, UPDATE … FROM, DELETE … USING, subqueries in WHERE and SET, a MERGE
 * source — is therefore checked, resolved and gated exactly as a query is.
 *
 * The relation written is not part of the tree while it passes (the caller
 * takes it out): it is never resolved as a read nor rewritten by the gate.
 * The caller puts the engine's name for it back (`attachTarget`) just before
 * printing; that node is built by the planner and trusted.
 */
import { checkSetReturningPlacement } from '../setReturning.js';
import { authorize } from '../authorize.js';
import { nameTargets } from '../colnames.js';
import { toDuckDbSql } from '../deparse.js';
import { applyDialect } from '../dialect/dialect.js';
import { EMULATION_DB } from '../emulation.js';
import { notSupported } from '../errors.js';
import { bindOutputColumnRefs } from '../outputRefs.js';
import { resolveRelations, type TableReference } from '../resolve.js';
import { settingsRelation } from '../settings.js';
import { names, nodeKind, replaceNode, strNode, walk, type Fields, type PgNode } from '../walk.js';
import type { WriteContext } from './context.js';

export interface PipelineHooks {
  /** After resolution, before the dialect pass: the tree as the user wrote it with every relation resolved (lineage, stars). */
  afterResolve?(tables: readonly TableReference[], tree: PgNode): void;
  /** Just before printing: put the target back (the engine's name). */
  attachTarget?(tree: PgNode): void;
}

/** A plain `VALUES (…), (…)` (an INSERT's rows): kept as it is, not named as a SELECT's columns. */
function plainValues(select: Fields | undefined): boolean {
  if (!select?.['valuesLists']) return false;
  return Object.keys(select).every((k) => k === 'valuesLists' || k === 'limitOption' || k === 'op');
}

/** Output names as PostgreSQL gives them, except an INSERT's own VALUES rows (its columns are the target's). */
function nameOutputs(tree: PgNode): void {
  const insert = tree['InsertStmt'];
  const rows = insert?.['selectStmt']?.['SelectStmt'] as Fields | undefined;
  if (insert && plainValues(rows)) {
    nameTargets(rows!['valuesLists']);
    nameTargets(insert['withClause'] ? { WithClause: insert['withClause'] } : undefined);
    return;
  }
  nameTargets(tree);
}

/**
 * Column references to the target as written with its schema (dbt writes
 * `"demo"."analytics"."t".col` in an UPDATE's WHERE) name it by the alias the
 * engine statement gives it. Only for a target without an alias of its own
 * (PostgreSQL refuses the table's name once an alias is given).
 */
export function shortenTargetReferences(tree: unknown, target: { database: string; schema: string; name: string }, alias: string): void {
  const prefixes = [
    [target.schema, target.name],
    [target.database, target.schema, target.name],
  ].map((p) => p.join('\u0000'));
  walk(tree, ({ kind, fields }) => {
    if (kind !== 'ColumnRef') return;
    const parts = (fields['fields'] ?? []) as PgNode[];
    if (parts.length < 3) return;
    for (const width of [3, 2]) {
      if (parts.length <= width) continue;
      const prefix = names(parts.slice(0, width));
      if (prefix.some((p) => p === '') || !prefixes.includes(prefix.join('\u0000'))) continue;
      fields['fields'] = [strNode(alias), ...parts.slice(width)];
      return;
    }
  });
}

/** Reads of the catalog emulation in a write: the per-session tables behind them are filled only for queries. */
function refuseEmulationReads(tree: PgNode, ctx: WriteContext): void {
  walk(tree, ({ kind, node, fields }) => {
    if (kind !== 'RangeVar' || fields['catalogname'] !== EMULATION_DB) return;
    if (fields['relname'] === 'pg_settings') {
      replaceNode(node, settingsRelation(ctx.settings, fields['alias']));
      return false;
    }
    throw notSupported(`reading ${String(fields['relname'])} in a statement that writes`, fields['location']);
  });
}

/**
 * Plan a write statement's tree (its target taken out): DuckDB SQL, and the
 * user tables it reads. `query`: the root is a query (CREATE TABLE AS, a
 * view's body), checked as reads are; otherwise a write statement.
 */
export function planWriteTree(tree: PgNode, ctx: WriteContext, hooks: PipelineHooks = {}, query = false): { sql: string; tables: TableReference[] } {
  const schemaExists = (schema: string) => ctx.catalog.listSchemas().includes(schema);
  checkSetReturningPlacement(tree);
  authorize(tree, schemaExists, { write: !query });
  nameOutputs(tree);
  const tables = resolveRelations(tree, ctx);
  hooks.afterResolve?.(tables, tree);
  applyDialect(tree, ctx, tables);
  bindOutputColumnRefs(tree);
  refuseEmulationReads(tree, ctx);
  ctx.policy.rewriteTables(tables, ctx, tree);
  hooks.attachTarget?.(tree);
  return { sql: toDuckDbSql(tree), tables };
}

/** The engine's RangeVar for a target (trusted: built here, never resolved), under `alias` where one is given. */
export function engineRangeVar(target: { kind: 'iceberg' | 'temp'; namespace: string[]; name: string }, writeAlias: string, alias?: Fields): Fields {
  const [catalogname, schemaname] = target.kind === 'temp' ? ['temp', 'main'] : [writeAlias, target.namespace.join('.')];
  return { catalogname, schemaname, relname: target.name, inh: true, relpersistence: 'p', ...(alias ? { alias } : {}) };
}

/** The statement kind a tree holds (for messages). */
export const kindOf = (tree: PgNode): string => nodeKind(tree) ?? '?';
