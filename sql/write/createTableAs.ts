/**
 * CREATE [TEMPORARY] TABLE … AS <query> [WITH [NO] DATA] and SELECT … INTO:
 * the query is planned exactly as a read (checked, resolved, gated: a masked
 * writer writes masked values, a filtered one copies only the rows it sees),
 * its `*` written out so the planner, not the engine, decides the columns'
 * order and names; each column takes on the tags of what it is computed
 * from (lineage), so a copy of a tagged column stays tagged. The session
 * learns the column types from the engine, creates the table with Iceberg's
 * (types.ts icebergColumnFor) and fills it.
 */
import { SqlError, notSupported, pos } from '../errors.js';
import type { ParsedStatement } from '../parse.js';
import { PRESENTED_TYPES, presentedOidOf } from '../pgTypes.js';
import { jsonbByValue, resultTypeOids, resultTypes, tableScans } from '../resultTypes.js';
import { cloneTree, names, type Fields, type PgNode } from '../walk.js';
import { rewriteWithTies } from '../withTies.js';
import type { WriteContext } from './context.js';
import { createChecks } from './createTable.js';
import { newRelation, occupant, writtenName } from './names.js';
import { alreadyExists, nothing } from './notices.js';
import { planWriteTree } from './pipeline.js';
import type { CatalogWrite, TableAsWrite } from './plan.js';
import { ColumnSources, type OutputColumn, type WrittenStars } from './sources.js';

/** The query planned as a read for a write: its DuckDB SQL, the output columns (lineage) and what the engine's types would not say. */
export interface PlannedQuery {
  sql: string;
  outputs: OutputColumn[];
  pgTypes: (string | undefined)[];
}

/** A query a write reads whole (CREATE TABLE AS, a view's body): through the read pipeline, its stars written out. */
export function planQueryForWrite(query: PgNode, ctx: WriteContext, stars?: WrittenStars): PlannedQuery {
  const tree = cloneTree(query);
  const select = tree['SelectStmt'];
  if (!select) throw notSupported(`${Object.keys(tree)[0] ?? 'this statement'} as the query of a write`);
  if (select['intoClause']) throw notSupported('SELECT INTO here');
  let outputs: OutputColumn[] = [];
  let pgTypes: (string | undefined)[] = [];
  const { sql } = planWriteTree(
    tree,
    ctx,
    {
      afterResolve: (tables) => {
        const sources = new ColumnSources(tables);
        sources.expandStars(select, stars);
        outputs = sources.outputs(select);
        const scans = tableScans(tables);
        const presented = resultTypeOids(resultTypes(tree, scans), outputs.map((o) => o.name));
        pgTypes = outputs.map((_, i) => {
          const p = presented[i];
          return p === undefined ? undefined : PRESENTED_TYPES[presentedOidOf(p)]?.name;
        });
        jsonbByValue(tree, scans);
        rewriteWithTies(tree);
      },
    },
    true,
  );
  if (outputs.length === 0) throw notSupported('a table or view without columns');
  return { sql, outputs, pgTypes };
}

/** The new relation's column names: the list written (42601 when longer than the query's), then the query's; each once (42701). */
export function columnNamesOf(outputs: readonly OutputColumn[], written: string[], tooMany: string): string[] {
  if (written.length > outputs.length) throw new SqlError('42601', tooMany);
  const out = outputs.map((o, i) => written[i] ?? o.name);
  const seen = new Set<string>();
  for (const n of out) {
    if (seen.has(n)) throw new SqlError('42701', `column "${n}" specified more than once`);
    seen.add(n);
  }
  return out;
}

interface AsTarget {
  into: Fields;
  query: PgNode;
  tag: TableAsWrite['tag'];
  ifNotExists: boolean;
}

function fromStatement(stmt: ParsedStatement): AsTarget {
  if (stmt.kind === 'SelectStmt') {
    const select = structuredClone(stmt.node['SelectStmt']!);
    const into = select['intoClause'] as Fields;
    delete select['intoClause'];
    return { into, query: { SelectStmt: select }, tag: 'SELECT', ifNotExists: false };
  }
  const c = stmt.node['CreateTableAsStmt']!;
  if (c['objtype'] === 'OBJECT_MATVIEW') {
    throw new SqlError('0A000', 'CREATE MATERIALIZED VIEW is not supported', undefined, { hint: 'Create a table with CREATE TABLE … AS, or a view.' });
  }
  const into = c['into'] as Fields;
  return { into, query: c['query'] as PgNode, tag: into['skipData'] ? 'CREATE TABLE AS' : 'SELECT', ifNotExists: c['if_not_exists'] === true };
}

export function planCreateTableAs(stmt: ParsedStatement, ctx: WriteContext): TableAsWrite | CatalogWrite {
  const { into, query, tag, ifNotExists } = fromStatement(stmt);
  if (into['options'] || into['tableSpaceName'] || into['accessMethod']) throw notSupported('storage options for an Iceberg table (WITH, TABLESPACE, USING)');
  if (into['onCommit'] === 'ONCOMMIT_DELETE_ROWS' || into['onCommit'] === 'ONCOMMIT_DROP') throw notSupported('ON COMMIT DELETE ROWS / DROP');
  const rel = into['rel'] as Fields;
  const target = newRelation(writtenName(rel), rel['relpersistence'] === 't', ctx);
  if (target.kind === 'iceberg') ctx.policy.require(createChecks(target));
  if (occupant(target, ctx)) {
    if (ifNotExists) return nothing('CREATE TABLE AS', alreadyExists(target.name));
    throw new SqlError('42P07', `relation "${target.name}" already exists`, pos(rel['location']));
  }
  const planned = planQueryForWrite(query, ctx);
  const columnNames = columnNamesOf(planned.outputs, names(into['colNames']), 'too many column names were specified');
  const columnTags = ctx.policy.tagsOf(planned.outputs.map((o, i) => ({ name: columnNames[i]!, sources: o.sources })));
  return {
    kind: 'table-as',
    tag,
    target: target.target,
    ifNotExists,
    withData: !into['skipData'],
    querySql: planned.sql,
    columnNames,
    pgTypes: planned.pgTypes,
    ...(Object.keys(columnTags).length > 0 ? { columnTags } : {}),
  };
}
