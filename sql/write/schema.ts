/**
 * CREATE SCHEMA [IF NOT EXISTS] s and DROP SCHEMA [IF EXISTS] s [CASCADE |
 * RESTRICT]: an Iceberg namespace of one level. Ranger's `create` / `drop` on
 * the database (the namespace) decides, as the Hive plugin's CREATEDATABASE /
 * DROPDATABASE; DROP … CASCADE also needs `drop` on every table and view in
 * it the user can see. A schema that is not empty is not dropped without
 * CASCADE (2BP01, naming what depends on it as PostgreSQL does).
 */
import { SqlError, notSupported } from '../errors.js';
import type { ParsedStatement } from '../parse.js';
import { effectiveSearchPath } from '../resolve.js';
import { names, type Fields } from '../walk.js';
import type { WriteCheck, WriteContext } from './context.js';
import { doesNotExist, nothing, schemaExists } from './notices.js';
import type { CatalogWrite } from './plan.js';

const SYSTEM_SCHEMAS = new Set(['pg_catalog', 'information_schema']);

export function planCreateSchema(stmt: ParsedStatement, ctx: WriteContext): CatalogWrite {
  const c = stmt.node['CreateSchemaStmt']!;
  if (c['authrole']) throw new SqlError('0A000', 'CREATE SCHEMA … AUTHORIZATION is not supported', undefined, { hint: 'Schemas belong to the catalog; leave AUTHORIZATION out.' });
  if ((c['schemaElts'] as unknown[] | undefined)?.length) throw notSupported('CREATE SCHEMA with the objects to create in it');
  const name = String(c['schemaname']);
  ctx.policy.require([{ access: 'create', resource: { database: name }, denial: new SqlError('42501', `permission denied for database ${ctx.database}`) }]);
  if (name.startsWith('pg_')) {
    throw new SqlError('42939', `unacceptable schema name "${name}"`, undefined, { detail: 'The prefix "pg_" is reserved for system schemas.' });
  }
  if (SYSTEM_SCHEMAS.has(name) || ctx.namespaceOf(name) !== null) {
    if (c['if_not_exists']) return nothing('CREATE SCHEMA', schemaExists(name));
    throw new SqlError('42P06', `schema "${name}" already exists`);
  }
  return { kind: 'catalog', tag: 'CREATE SCHEMA', op: { op: 'create-schema', namespace: [name], ifNotExists: c['if_not_exists'] === true } };
}

/** PostgreSQL lists at most this many dependent objects in the DETAIL. */
const MAX_LISTED = 100;

export function planDropSchema(stmt: ParsedStatement, ctx: WriteContext): CatalogWrite {
  const d = stmt.node['DropStmt']!;
  const schemas = names((d['objects'] ?? []) as Fields[]);
  if (schemas.length !== 1) throw notSupported('DROP SCHEMA of several schemas in one statement', undefined);
  const name = schemas[0]!;
  const cascade = d['behavior'] === 'DROP_CASCADE';
  // (only a superuser, which no lakegate user is, hears 2BP01 "required by the database system")
  if (SYSTEM_SCHEMAS.has(name)) throw new SqlError('42501', `must be owner of schema ${name}`);
  const namespace = ctx.namespaceOf(name);
  if (namespace === null) {
    if (d['missing_ok']) return nothing('DROP SCHEMA', doesNotExist('schema', name));
    throw new SqlError('3F000', `schema "${name}" does not exist`);
  }
  const checks: WriteCheck[] = [{ access: 'drop', resource: { database: name }, denial: new SqlError('42501', `must be owner of schema ${name}`) }];
  const listing = ctx.listing ?? { tables: [], views: [] };
  const dependents = [
    ...listing.tables.filter((t) => t.schema === name).map((t) => ({ kind: 'table', name: t.name, resource: t.resource })),
    ...listing.views.filter((v) => v.schema === name).map((v) => ({ kind: 'view', name: v.name, resource: { database: name, table: v.name } })),
  ].sort((a, b) => a.name.localeCompare(b.name));
  if (cascade) {
    for (const dep of dependents) {
      checks.push({ access: 'drop', resource: { database: dep.resource.database, table: dep.resource.table }, denial: new SqlError('42501', `must be owner of ${dep.kind} ${dep.name}`) });
    }
  }
  ctx.policy.require(checks);
  if (!cascade && dependents.length > 0) {
    // PostgreSQL names a relation the search path finds unqualified
    const shown = effectiveSearchPath(ctx).includes(name) ? '' : `${name}.`;
    const lines = dependents.slice(0, MAX_LISTED).map((dep) => `${dep.kind} ${shown}${dep.name} depends on schema ${name}`);
    if (dependents.length > MAX_LISTED) lines.push(`and ${dependents.length - MAX_LISTED} other objects (see server log for list)`);
    throw new SqlError('2BP01', `cannot drop schema ${name} because other objects depend on it`, undefined, {
      detail: lines.join('\n'),
      hint: 'Use DROP ... CASCADE to drop the dependent objects too.',
    });
  }
  return { kind: 'catalog', tag: 'DROP SCHEMA', op: { op: 'drop-schema', namespace, ifExists: d['missing_ok'] === true, cascade } };
}
