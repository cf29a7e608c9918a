/**
 * CREATE [TEMPORARY] TABLE [IF NOT EXISTS] t (columns): each column's
 * PostgreSQL type mapped to the Iceberg type the engine creates it with
 * (types.ts), NOT NULL kept (an Iceberg required field). What an Iceberg
 * table cannot have — keys, checks, defaults, partitioning, inheritance,
 * storage options — is refused (0A000) rather than dropped silently.
 * Ranger's `create` on the schema and on the new table decides (the Hive
 * plugin's CREATETABLE); a temporary table needs none.
 */
import { SqlError, notSupported, pos } from '../errors.js';
import type { ParsedStatement } from '../parse.js';
import { names, type Fields } from '../walk.js';
import { IGNORED_COLLATIONS } from '../authorize.js';
import type { WriteContext, WriteCheck } from './context.js';
import { newRelation, occupant, quoteIdent, writtenName, type NewRelation } from './names.js';
import { alreadyExists, nothing } from './notices.js';
import type { CatalogWrite, EngineWrite, WriteColumn } from './plan.js';
import { columnTypeFor } from './types.js';

const CONSTRAINT_NAMES: Readonly<Record<string, string>> = {
  CONSTR_PRIMARY: 'PRIMARY KEY',
  CONSTR_UNIQUE: 'UNIQUE',
  CONSTR_FOREIGN: 'FOREIGN KEY',
  CONSTR_CHECK: 'CHECK',
  CONSTR_EXCLUSION: 'EXCLUDE',
  CONSTR_IDENTITY: 'GENERATED … AS IDENTITY',
  CONSTR_GENERATED: 'GENERATED … STORED',
  CONSTR_ATTR_DEFERRABLE: 'DEFERRABLE',
  CONSTR_ATTR_NOT_DEFERRABLE: 'NOT DEFERRABLE',
  CONSTR_ATTR_DEFERRED: 'INITIALLY DEFERRED',
  CONSTR_ATTR_IMMEDIATE: 'INITIALLY IMMEDIATE',
};

const noConstraint = (c: Fields): SqlError =>
  new SqlError('0A000', `${CONSTRAINT_NAMES[String(c['contype'])] ?? 'this'} constraints are not supported: an Iceberg table has none`, pos(c['location']), {
    hint: 'Leave the constraint out; NOT NULL is kept.',
  });

/** A column definition as the table is created with it. `temporary`: the engine's types, no Iceberg limits. */
export function columnOf(def: Fields, temporary: boolean): WriteColumn {
  const name = String(def['colname']);
  let nullable = true;
  for (const c of ((def['constraints'] ?? []) as Fields[]).map((x) => x['Constraint'] as Fields)) {
    switch (c['contype']) {
      case 'CONSTR_NOTNULL':
        nullable = false;
        break;
      case 'CONSTR_NULL':
        nullable = true;
        break;
      case 'CONSTR_DEFAULT':
        // DEFAULT NULL is every Iceberg column's default; another default the extension cannot write (v2 tables)
        if (c['raw_expr']?.['A_Const']?.['isnull'] !== true) {
          throw new SqlError('0A000', `a DEFAULT for column "${name}" is not supported: Iceberg v2 columns default to NULL`, pos(c['location']));
        }
        break;
      default:
        throw noConstraint(c);
    }
  }
  const coll = def['collClause'] ? names(def['collClause']['collname']) : [];
  if (coll.length > 0 && !IGNORED_COLLATIONS.has(coll[coll.length - 1]!)) throw notSupported(`collation "${coll.join('.')}"`, def['collClause']['location']);
  if (def['fdwoptions'] || def['storage_name'] || def['compression']) throw notSupported('column storage options', def['location']);
  const type = columnTypeFor(name, def['typeName'] as Fields, temporary);
  return { name, duckType: type.duckType, ...(type.pgType ? { pgType: type.pgType } : {}), nullable };
}

/** The engine's column list for CREATE TABLE. */
export const columnList = (columns: readonly WriteColumn[]): string =>
  columns.map((c) => `${quoteIdent(c.name)} ${c.duckType}${c.nullable ? '' : ' NOT NULL'}`).join(', ');

/** Ranger's `create` on the schema and on the new relation (the Hive plugin's CREATETABLE / CREATEVIEW), refused as PostgreSQL refuses CREATE in a schema. */
export function createChecks(rel: Extract<NewRelation, { kind: 'iceberg' }>): WriteCheck[] {
  const denial = new SqlError('42501', `permission denied for schema ${rel.schema}`);
  return [
    { access: 'create', resource: { database: rel.schema }, denial },
    { access: 'create', resource: { database: rel.schema, table: rel.name }, denial },
  ];
}

/** Table options PostgreSQL has and an Iceberg table cannot take: refused, not ignored. */
function refuseTableOptions(c: Fields): void {
  if (c['partspec']) throw new SqlError('0A000', 'PARTITION BY is not supported: lakegate creates unpartitioned Iceberg tables', pos(c['partspec']['location']));
  if ((c['inhRelations'] as unknown[] | undefined)?.length) throw notSupported('INHERITS');
  if (c['partbound']) throw notSupported('PARTITION OF');
  if (c['ofTypename']) throw notSupported('CREATE TABLE … OF type');
  if (c['options'] || c['tablespacename'] || c['accessMethod']) throw notSupported('storage options for an Iceberg table (WITH, TABLESPACE, USING)');
  if (c['oncommit'] === 'ONCOMMIT_DELETE_ROWS' || c['oncommit'] === 'ONCOMMIT_DROP') throw notSupported('ON COMMIT DELETE ROWS / DROP');
}

export function planCreateTable(stmt: ParsedStatement, ctx: WriteContext): EngineWrite | CatalogWrite {
  const c = stmt.node['CreateStmt']!;
  refuseTableOptions(c);
  const relation = c['relation'] as Fields;
  const temporary = relation['relpersistence'] === 't';
  const rel = newRelation(writtenName(relation), temporary, ctx);
  if (rel.kind === 'iceberg') ctx.policy.require(createChecks(rel));
  if (occupant(rel, ctx)) {
    if (c['if_not_exists']) return nothing('CREATE TABLE', alreadyExists(rel.name));
    throw new SqlError('42P07', `relation "${rel.name}" already exists`, pos(relation['location']));
  }
  const columns: WriteColumn[] = [];
  for (const elt of (c['tableElts'] ?? []) as Fields[]) {
    if (elt['Constraint']) throw noConstraint(elt['Constraint']);
    if (elt['TableLikeClause']) throw notSupported('CREATE TABLE … (LIKE …)');
    const def = elt['ColumnDef'] as Fields | undefined;
    if (!def) throw notSupported('this table element');
    const col = columnOf(def, rel.kind === 'temp');
    if (columns.some((x) => x.name === col.name)) throw new SqlError('42701', `column "${col.name}" specified more than once`, pos(def['location']));
    columns.push(col);
  }
  if (columns.length === 0) throw notSupported('a table without columns', relation['location']);
  const create = rel.kind === 'temp' ? 'CREATE TEMP TABLE' : 'CREATE TABLE';
  return { kind: 'engine', tag: 'CREATE TABLE', sql: `${create} ${rel.target.engineName} (${columnList(columns)})`, counts: false, target: rel.target, ddl: true, created: columns };
}
