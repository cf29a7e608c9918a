/**
 * What the catalog gate lets one user load, as the admin room asks it: the
 * room's only view of the catalog. The server answers it through the Iceberg
 * catalog as that user (the same answers, and the same cache, as a SELECT), so
 * a table the user may not load and a table that does not exist are alike.
 *
 * GRANT, DENY and REVOKE name an object that must exist for the grantor;
 * CHECK ACCESS by a user answers for a hidden object what SELECT answers for a
 * missing one. The errors are PostgreSQL's own.
 */
import { SqlError } from '../../sql/errors.js';
import type { Target } from './plan.js';
import type { ObjectRef } from './statement.js';

/** Who asks: the user and what a catalog call as that user needs. */
export interface CatalogAsker {
  user: string;
  token?: () => string;
  origin?: { clientIp?: string | null; sessionId?: string | number | null };
}

export interface LoadableRelation {
  namespace: string[];
  name: string;
}

export interface LoadableObjects {
  /** The table or view by its exact name when this user may load it; null when it is missing or hidden, alike. */
  relation(asker: CatalogAsker, namespace: readonly string[], name: string): Promise<'table' | 'view' | null>;
  /** Every namespace this user may load (each probed as the user). */
  namespaces(asker: CatalogAsker): Promise<string[][]>;
  /** Every table and view this user may load, as the catalog emulation lists them (loads them all: costly). */
  relations(asker: CatalogAsker): Promise<LoadableRelation[]>;
  /**
   * The table's column tags (`sqe.column-tags`) as this user loads it: column → tags; `{}` when
   * it has none; null when they cannot be read. Absent: SHOW TAGS is not available.
   */
  columnTags?(asker: CatalogAsker, namespace: readonly string[], name: string): Promise<Readonly<Record<string, readonly string[]>> | null>;
}

/** By its PostgreSQL schema name (the levels joined with dots), as a SELECT resolves it. */
const loadsNamespace = async (objects: LoadableObjects, asker: CatalogAsker, ns: readonly string[]) =>
  (await objects.namespaces(asker)).some((n) => n.join('.') === ns.join('.'));

/** The relation's name as PostgreSQL prints it in an error: schema.name as written (the catalog part dropped), or the bare name. */
function writtenRelation(obj: ObjectRef): string {
  return obj.parts.slice(-2).join('.');
}

/** A table or view by name (not a schema, nor ALL / FUTURE TABLES or ALL VIEWS IN SCHEMA, whose object is the schema). */
const isRelation = (obj: ObjectRef) => obj.kind === 'table' || obj.kind === 'view';

const noRelation = (obj: ObjectRef) => new SqlError('42P01', `relation "${writtenRelation(obj)}" does not exist`);
const noSchema = (t: Target) => new SqlError('3F000', `schema "${t.namespace.join('.')}" does not exist`);

/**
 * PostgreSQL's error for the object a GRANT, DENY or REVOKE names when the
 * grantor cannot load it (null: it is there). As PostgreSQL's GRANT: a
 * qualified table in a missing schema is 3F000, a missing table 42P01, ALL
 * TABLES IN SCHEMA of a missing schema 3F000. A view named as VIEW must be one.
 */
export async function missingForGrant(obj: ObjectRef, t: Target, asker: CatalogAsker, objects: LoadableObjects): Promise<SqlError | null> {
  if (t.level === 'catalog') return null;
  // an unqualified name is looked up along search_path: its schema is not named, so the relation is what is missing
  if (!(await loadsNamespace(objects, asker, t.namespace))) return isRelation(obj) && obj.parts.length === 1 ? noRelation(obj) : noSchema(t);
  if (!isRelation(obj)) return null;
  const found = await objects.relation(asker, t.namespace, t.table!);
  if (found === null) return noRelation(obj);
  if (obj.kind === 'view' && found !== 'view') return new SqlError('42809', `"${writtenRelation(obj)}" is not a view`);
  return null;
}

/**
 * What SELECT answers for an object the asker cannot load (null: it is
 * there): a table or view is 42P01 whether its schema, or it, is missing or
 * hidden; a schema is 3F000.
 */
export async function missingForReading(obj: ObjectRef, t: Target, asker: CatalogAsker, objects: LoadableObjects): Promise<SqlError | null> {
  if (t.level === 'catalog') return null;
  if (!isRelation(obj)) return (await loadsNamespace(objects, asker, t.namespace)) ? null : noSchema(t);
  return (await objects.relation(asker, t.namespace, t.table!)) === null ? noRelation(obj) : null;
}
