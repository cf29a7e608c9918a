/**
 * The relations a write names, resolved as the session's user exactly as
 * reads resolve them (sql/resolve.ts: the session's temporary tables first,
 * then the search path; a table the user may not load or read is missing,
 * 42P01), and the names a write creates: in the schema written, or the first
 * existing schema of the search path, as PostgreSQL chooses it.
 */
import type { CatalogTable, CatalogView } from '../catalogView.js';
import { INFORMATION_SCHEMA_RELATIONS, PG_CATALOG_RELATIONS } from '../emulation.js';
import { SqlError, pos } from '../errors.js';
import { resolveRelation } from '../resolve.js';
import { isTempSchema, TEMP_CATALOG } from '../tempTables.js';
import type { Fields } from '../walk.js';
import type { WriteContext } from './context.js';
import type { TempTable, WriteTarget } from './plan.js';

/** An identifier as DuckDB reads it, always quoted. */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** A relation name as written: `catalog.schema.name`, any part but the name left out. */
export interface WrittenName {
  catalog?: string;
  schema?: string;
  name: string;
  location?: number;
}

export function writtenName(rangeVar: Fields): WrittenName {
  return {
    ...(rangeVar['catalogname'] !== undefined ? { catalog: String(rangeVar['catalogname']) } : {}),
    ...(rangeVar['schemaname'] !== undefined ? { schema: String(rangeVar['schemaname']) } : {}),
    name: String(rangeVar['relname']),
    ...(typeof rangeVar['location'] === 'number' ? { location: rangeVar['location'] } : {}),
  };
}

/** `schema.name` as written (PostgreSQL's 42P01 names the relation so). */
export const shown = (n: WrittenName): string => (n.schema !== undefined ? `${n.schema}.${n.name}` : n.name);

/** What a write's relation turned out to be. */
export type WriteRelation =
  | { kind: 'table'; table: CatalogTable; target: WriteTarget }
  | { kind: 'view'; view: CatalogView; target: WriteTarget }
  | { kind: 'temp'; table: TempTable; target: WriteTarget }
  /** a relation of the catalog emulation (pg_catalog, information_schema): never written */
  | { kind: 'system'; schema: 'pg_catalog' | 'information_schema'; name: string; relkind: 'r' | 'v' };

export function icebergTarget(ctx: Pick<WriteContext, 'writeAlias' | 'namespaceOf'>, schema: string, name: string): WriteTarget {
  // a relation's own schema always has its namespace; a new name's was checked by newRelation
  const namespace = ctx.namespaceOf(schema) ?? [schema];
  return { kind: 'iceberg', namespace, name, engineName: `${quoteIdent(ctx.writeAlias)}.${quoteIdent(namespace.join('.'))}.${quoteIdent(name)}` };
}

export function tempTarget(name: string): WriteTarget {
  return { kind: 'temp', namespace: [], name, engineName: `${TEMP_CATALOG}.main.${quoteIdent(name)}` };
}

/** Resolve an existing relation a write names (42P01 when the user may not load or read it, as for a missing one). */
export function resolveWriteRelation(n: WrittenName, ctx: WriteContext): WriteRelation {
  const r = resolveRelation(n, ctx, n.location);
  switch (r.kind) {
    case 'table':
      if (r.table.metadataOf) {
        throw new SqlError('42809', `cannot change metadata table "${r.table.name}"`, pos(n.location), { detail: 'Iceberg metadata tables ($snapshots, $files …) are read-only.' });
      }
      return { kind: 'table', table: r.table, target: icebergTarget(ctx, r.table.schema, r.table.name) };
    case 'view':
      return { kind: 'view', view: r.view, target: icebergTarget(ctx, r.view.schema, r.view.name) };
    case 'temp':
      return { kind: 'temp', table: r.table, target: tempTarget(r.table.name) };
    case 'emulated': {
      const rel = r.schema === 'pg_catalog' ? PG_CATALOG_RELATIONS[r.name] : INFORMATION_SCHEMA_RELATIONS[r.name];
      return { kind: 'system', schema: r.schema, name: r.name, relkind: rel?.relkind === 'v' ? 'v' : 'r' };
    }
  }
}

/** Like resolveWriteRelation, but a missing relation is null (IF EXISTS). */
export function findWriteRelation(n: WrittenName, ctx: WriteContext): WriteRelation | null {
  try {
    return resolveWriteRelation(n, ctx);
  } catch (e) {
    if (e instanceof SqlError && e.code === '42P01') return null;
    throw e;
  }
}

/** The name `lg_…`: the engine connection's own tables (the catalog emulation) are named so. */
const RESERVED_TEMP = /^lg_/i;

/** Where a relation a statement creates goes. */
export type NewRelation = { kind: 'iceberg'; schema: string; name: string; target: WriteTarget } | { kind: 'temp'; name: string; target: WriteTarget };

/**
 * The schema a new relation is created in, as PostgreSQL picks it: the one
 * written (pg_temp for a temporary one), or the first schema of the search
 * path that exists. A temporary relation may not name another schema.
 */
export function newRelation(n: WrittenName, temporary: boolean, ctx: WriteContext): NewRelation {
  if (n.catalog !== undefined && n.catalog !== ctx.database) {
    throw new SqlError('0A000', `cross-database references are not implemented: "${[n.catalog, n.schema, n.name].join('.')}"`, pos(n.location));
  }
  const inTemp = n.schema !== undefined && isTempSchema(n.schema, ctx.temp);
  if (temporary && n.schema !== undefined && !inTemp) {
    throw new SqlError('42P16', 'cannot create temporary relation in non-temporary schema', pos(n.location));
  }
  if (temporary || inTemp) {
    if (RESERVED_TEMP.test(n.name)) {
      throw new SqlError('42939', `temporary table name "${n.name}" is reserved by lakegate`, pos(n.location), { hint: 'Choose a name that does not start with lg_.' });
    }
    return { kind: 'temp', name: n.name, target: tempTarget(n.name) };
  }
  let schema = n.schema;
  if (schema === 'pg_catalog' || schema === 'information_schema') {
    throw new SqlError('42501', `permission denied for schema ${schema}`, pos(n.location));
  }
  if (schema === undefined) {
    schema = ctx.searchPath.map((s) => (s === '$user' ? ctx.user : s)).find((s) => s !== 'pg_catalog' && s !== 'information_schema' && !isTempSchema(s, ctx.temp) && ctx.namespaceOf(s) !== null);
    if (schema === undefined) throw new SqlError('3F000', 'no schema has been selected to create in', pos(n.location));
  } else if (ctx.namespaceOf(schema) === null) {
    throw new SqlError('3F000', `schema "${schema}" does not exist`, pos(n.location));
  }
  return { kind: 'iceberg', schema, name: n.name, target: icebergTarget(ctx, schema, n.name) };
}

/** What already holds a new relation's name in its schema (a temporary one among the session's). */
export function occupant(rel: NewRelation, ctx: WriteContext): 'table' | 'view' | null {
  if (rel.kind === 'temp') return ctx.temp.tables.some((t) => t.name === rel.name) ? 'table' : null;
  if (ctx.catalog.getTable(rel.schema, rel.name)) return 'table';
  return ctx.catalog.getView?.(rel.schema, rel.name) ? 'view' : null;
}
