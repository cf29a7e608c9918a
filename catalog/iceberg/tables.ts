/**
 * A loaded Iceberg table or view as the planner sees it (sql/catalogView.ts):
 * a table reads as `iceberg_scan('<metadata location>')` of the snapshot the
 * catalog returned (or the one a time travel chose), with the columns
 * iceberg_scan gives for that snapshot and the column tags of the table.
 * Policies and tags name today's columns: an older snapshot's columns are
 * decided by the current name of their field id (a dropped field: restricted).
 */
import { parseStatements } from '../../sql/parse.js';
import type { CatalogTable, CatalogView } from '../../sql/catalogView.js';
import { notSupported, SqlError } from '../../sql/errors.js';
import type { PgNode } from '../../sql/walk.js';
import type { LoadedTable, LoadedView, Namespace } from './api.js';
import { chooseSnapshot, columnsDecidedByCurrent, columnsOf, columnTagsFor, MetadataError, pgTypesByFieldId, schemaById, type SnapshotSelector } from './metadata.js';

const quoteLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The FROM item iceberg_scan(…) as libpg-query builds it, parsed once per table. */
function scanNode(metadataLocation: string, snapshotId: bigint | null): PgNode {
  const args = [quoteLiteral(metadataLocation)];
  if (snapshotId !== null) args.push(`snapshot_from_id => ${snapshotId}`);
  const stmt = parseStatements(`SELECT * FROM iceberg_scan(${args.join(', ')})`)[0]!;
  return (stmt.node['SelectStmt']!['fromClause'] as PgNode[])[0]!;
}

/**
 * The table as one reference reads it. `selector` is the time travel written
 * in the query. The current snapshot needs no argument: the metadata file the
 * catalog returned names it (and its current schema, which a time travel
 * does not use).
 */
export function catalogTable(ns: Namespace, name: string, loaded: LoadedTable, selector: SnapshotSelector): CatalogTable {
  let chosen;
  try {
    chosen = chooseSnapshot(loaded.metadata, selector);
  } catch (e) {
    if (e instanceof MetadataError) throw new SqlError('22023', `${[...ns, name].join('.')}: ${e.message}`);
    throw e;
  }
  let columns;
  let current;
  try {
    current = schemaById(loaded.metadata, undefined);
    const pgTypes = pgTypesByFieldId(loaded.metadata);
    columns = chosen.schema === current ? columnsOf(current, pgTypes) : columnsDecidedByCurrent(chosen.schema, current, pgTypes);
  } catch (e) {
    if (e instanceof MetadataError) throw notSupported(`${[...ns, name].join('.')}: ${e.message}`);
    throw e;
  }
  const scan = scanNode(loaded.metadataLocation, selector.kind === 'current' ? null : chosen.snapshotId);
  return {
    schema: ns.join('.'),
    name,
    columns,
    resource: { database: ns.join('.'), table: name },
    scan: () => structuredClone(scan),
    snapshotId: chosen.snapshotId === null ? null : String(chosen.snapshotId),
    columnTags: columnTagsFor(loaded.metadata, current),
    ...(commentOf(loaded.metadata.properties) ? { comment: commentOf(loaded.metadata.properties)! } : {}),
  };
}

/** The SQL representations lakegate reads, most preferred first; others are tried if they parse. */
const PREFERRED_DIALECTS = ['postgresql', 'postgres', 'duckdb', 'ansi', 'trino', 'spark'];

/** An Iceberg view: its SQL parsed as PostgreSQL SQL (it is then checked like the user's own). */
export function catalogView(ns: Namespace, name: string, loaded: LoadedView): CatalogView {
  const meta = loaded.metadata;
  const full = [...ns, name].join('.');
  const version = meta.versions.find((v) => v['version-id'] === meta['current-version-id']);
  if (!version) throw new SqlError('XX000', `view ${full}: its current version is missing from the metadata`);
  const schema = meta.schemas.find((s) => s['schema-id'] === version['schema-id']);
  if (!schema) throw new SqlError('XX000', `view ${full}: its schema is missing from the metadata`);
  const sqls = version.representations
    .filter((r) => r.type === 'sql' && r.sql !== undefined)
    .sort((a, b) => rank(a.dialect) - rank(b.dialect));
  for (const r of sqls) {
    let stmts;
    try {
      stmts = parseStatements(r.sql!);
    } catch {
      continue;
    }
    if (stmts.length !== 1 || stmts[0]!.kind !== 'SelectStmt') continue;
    const defaultNs = version['default-namespace'].length > 0 ? version['default-namespace'] : [...ns];
    return {
      schema: ns.join('.'),
      name,
      columns: columnsOf(schema),
      query: stmts[0]!.node,
      defaultSchema: defaultNs.join('.'),
      ...(commentOf(meta.properties) ? { comment: commentOf(meta.properties)! } : {}),
    };
  }
  throw notSupported(`view ${full}: none of its SQL representations is a query lakegate can read`);
}

/** COMMENT ON TABLE / VIEW: Iceberg's `comment` property (an own property: the name comes from the catalog's JSON). */
const commentOf = (properties: Record<string, string>): string | undefined =>
  Object.hasOwn(properties, 'comment') && properties['comment'] !== '' ? properties['comment'] : undefined;

function rank(dialect: string | undefined): number {
  const i = PREFERRED_DIALECTS.indexOf((dialect ?? '').toLowerCase());
  return i < 0 ? PREFERRED_DIALECTS.length : i;
}
