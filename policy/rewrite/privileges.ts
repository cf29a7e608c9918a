/**
 * What the gates let a user do with a relation, in PostgreSQL's privilege terms,
 * for the catalog emulation (pg_class.relacl, pg_attribute.attacl,
 * pg_namespace.nspacl) and so for has_*_privilege, information_schema's
 * privilege views, psql's \dp and pgJDBC's privilege calls.
 *
 * The answers are the data gate's own decisions, the same ones a statement
 * meets (writeAccess.ts, decide.ts):
 *  - SELECT on the table: every column readable. A table some of whose columns
 *    are restricted is PostgreSQL's column grant: SELECT on each readable
 *    column, not on the table (`select *` is refused there too);
 *  - INSERT: Ranger's hive `update` on the table;
 *  - UPDATE, DELETE, TRUNCATE: `update`, and the user sees the table as stored
 *    (no row filter, no mask, every column readable), as dmlTarget requires;
 *  - CREATE on a schema: hive `create` on the database; USAGE on every schema the
 *    user's catalog lists.
 * REFERENCES, TRIGGER and grant options are never held (lakegate has no keys,
 * no triggers, and grants live in Ranger). The catalog gate's own write check
 * (Polaris at commit) is not asked here: Polaris has no call that answers it
 * without writing.
 */
import type { CatalogTable } from '../../sql/catalogView.js';
import type { PolicyEngine } from '../ranger/engine.js';
import type { Subject, TableDecision } from './decide.js';
import { decideWrite, storedView } from './writeAccess.js';

export interface RelationPrivileges {
  /** table-level privileges as aclitem letters (PostgreSQL's ACL_*_CHR: r SELECT, a INSERT, w UPDATE, d DELETE, D TRUNCATE) */
  table: string;
  /** the columns holding SELECT of their own, when the table's SELECT is withheld for some of its columns; null otherwise */
  columns: ReadonlySet<string> | null;
}

export const NO_PRIVILEGES: RelationPrivileges = Object.freeze({ table: '', columns: null });

export function relationPrivileges(
  engine: PolicyEngine | null,
  subject: Subject,
  table: CatalogTable,
  decision: TableDecision | null,
): RelationPrivileges {
  if (!decision?.visible) return NO_PRIVILEGES;
  const readable = decision.columns.filter((c) => c.readable);
  const everyColumn = readable.length === decision.columns.length;
  const write = !table.metadataOf &&
    decideWrite(engine, subject, { access: 'update', resource: { database: table.resource.database, table: table.resource.table } }).allowed;
  const stored = storedView(decision) === null;
  let letters = everyColumn ? 'r' : '';
  if (write) letters = `a${letters}${stored ? 'wdD' : ''}`;
  return { table: letters, columns: everyColumn ? null : new Set(readable.map((c) => c.name)) };
}

/** CREATE on a schema: the data gate's `create` on the database (what CREATE TABLE in it is decided by first). */
export function schemaCreate(engine: PolicyEngine | null, subject: Subject, schema: string): boolean {
  return decideWrite(engine, subject, { access: 'create', resource: { database: schema } }).allowed;
}
