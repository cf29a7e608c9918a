/**
 * A statement → the policies it writes, one per resource level, outermost
 * first (sqe's grant profile). Every resource map carries `root` (the
 * configured realm value, `*` by default). A privilege binds to one level:
 * naming an object at another level is refused, and the message names the
 * level the grant would have been written at.
 */
import { SqlError } from '../../sql/errors.js';
import { denyTypes, LEVEL_NAME, ownTypes, PRIVILEGE_LEVEL, PRIVILEGE_TEXT, PRIVILEGES, traversalAbove, type Level, type Privilege, type TargetKind } from './privileges.js';
import type { Grantee, ObjectRef } from './statement.js';

export interface PlanContext {
  /** The catalog (PostgreSQL database) the session is connected to. */
  catalog: string;
  /** The `root` value written into every resource map. */
  realm: string;
  /** The schema of an unqualified table name (the first schema of search_path). */
  defaultSchema: string | null;
}

/** The resolved object: its level, the names on the way down, and what sits in the table slot. */
export interface Target {
  level: Level;
  kind: TargetKind;
  namespace: string[];
  /** table or view name; `*` for ALL / FUTURE TABLES / VIEWS */
  table: string | null;
}

export interface LevelWrite {
  level: Level;
  resource: Record<string, string>;
  /** dotted catalog.namespace.table, root omitted (SHOW GRANTS' `resource`) */
  display: string;
  types: readonly string[];
  /** The privilege the label records: the statement's own, or USAGE for traversal. */
  privilege: Privilege;
  kind: TargetKind;
  traversal: boolean;
}

export const invalidGrant = (message: string, hint?: string) => new SqlError('0LP01', message, undefined, hint ? { hint } : {});

export function resolveTarget(obj: ObjectRef, ctx: PlanContext): Target {
  const checkCatalog = (cat: string) => {
    if (cat !== ctx.catalog) throw new SqlError('0A000', `cross-database references are not implemented: "${cat}" is not the connected catalog "${ctx.catalog}"`);
  };
  const schemaOf = (parts: string[]): string[] => {
    if (parts.length === 2) checkCatalog(parts[0]!);
    return [parts[parts.length - 1]!];
  };
  switch (obj.kind) {
    case 'database':
      checkCatalog(obj.parts[0]!);
      return { level: 'catalog', kind: 'table', namespace: [], table: null };
    case 'schema':
      return { level: 'namespace', kind: 'table', namespace: schemaOf(obj.parts), table: null };
    case 'all-tables':
    case 'future-tables':
    case 'all-views':
      return { level: 'table', kind: obj.kind === 'all-views' ? 'view' : 'table', namespace: schemaOf(obj.parts), table: '*' };
    case 'table':
    case 'view': {
      const p = obj.parts;
      if (p.length === 3) checkCatalog(p[0]!);
      let ns: string[];
      if (p.length >= 2) ns = [p[p.length - 2]!];
      else if (ctx.defaultSchema) ns = [ctx.defaultSchema];
      else throw new SqlError('3F000', 'no schema has been selected to create in', undefined, { hint: 'Qualify the name: schema.table.' });
      return { level: 'table', kind: obj.kind, namespace: ns, table: p[p.length - 1]! };
    }
  }
}

/**
 * A name GRANT and DENY write is a name, not a pattern. Ranger reads `*` and
 * `?` in a policy's resource value as wildcards, and the polaris service def
 * (default matcher, no matcher options) has no escape for them: `sales."o*"`
 * would be written as a policy on every table whose name starts with o. Only
 * the forms that mean many tables (ALL / FUTURE TABLES, ALL VIEWS IN SCHEMA)
 * write a wildcard, and they write it themselves.
 */
export function refuseWildcardNames(obj: ObjectRef): void {
  for (const part of obj.parts) {
    if (!/[*?]/.test(part)) continue;
    const schema = obj.kind === 'table' || obj.kind === 'view' ? obj.parts[obj.parts.length - 2] : undefined;
    const everyTable = schema !== undefined && !/[*?]/.test(schema) ? { hint: `For every table of the schema, name ALL TABLES IN SCHEMA ${schema}.` } : {};
    throw new SqlError('42602', `invalid name "${part}": a Ranger policy cannot hold * or ? in a name (Ranger reads them as wildcards)`, undefined, everyTable);
  }
}

/** Ranger's resource map for a level of the target, read as Polaris's resource names are (the last slot absorbs extra `/`). */
export function resourceAt(level: Level, t: Target, ctx: PlanContext): { resource: Record<string, string>; display: string } {
  const names = level === 'catalog' ? [] : level === 'namespace' ? t.namespace : [...t.namespace, t.table!];
  const slots = level === 'catalog' ? [] : level === 'namespace' ? ['namespace'] : ['namespace', 'table'];
  const resource: Record<string, string> = { root: ctx.realm, catalog: ctx.catalog };
  slots.forEach((slot, i) => {
    resource[slot] = i === slots.length - 1 ? names.slice(i).join('/') : names[i]!;
  });
  return { resource, display: [ctx.catalog, ...names].join('.') };
}

/** The one level the privilege may be written at for this object, or the refusal naming the level it would have been written at. */
export function checkLevel(p: Privilege, t: Target, ctx: PlanContext): void {
  if (ownTypes(p, t.level, t.kind) !== null) return;
  const bound = p === 'USAGE' ? (t.level === 'catalog' ? 'catalog' : 'namespace') : PRIVILEGE_LEVEL[p];
  const name = PRIVILEGE_TEXT[p];
  const what = t.table === null ? (t.level === 'catalog' ? `DATABASE ${ctx.catalog}` : `SCHEMA ${t.namespace.join('.')}`) : `${t.kind === 'view' ? 'VIEW' : 'TABLE'} ${[...t.namespace, t.table].join('.')}`;
  if (bound === t.level) {
    // the right level, the wrong kind of object: INSERT ON VIEW v (PostgreSQL's wording for a privilege an object type lacks)
    throw invalidGrant(`invalid privilege type ${name} for ${t.kind}`, `A view is read (SELECT), replaced (ALTER) and dropped (DROP); name its table to write.`);
  }
  if (bound === 'catalog') {
    throw invalidGrant(
      `${name} binds to the catalog level: ON ${what} would be written as a policy on the whole catalog "${ctx.catalog}"`,
      p === 'ALL'
        ? `Grant ALL ON DATABASE ${ctx.catalog} for the whole catalog, or name the table privileges (SELECT, INSERT, UPDATE, DELETE, ALTER, DROP).`
        : `Grant ${name} ON DATABASE ${ctx.catalog}.`,
    );
  }
  if (bound === 'namespace') {
    const ns = t.namespace.length > 0 ? t.namespace.join('.') : '<schema>';
    throw invalidGrant(`${name} binds to the ${LEVEL_NAME.namespace} level: ON ${what} would be written on namespace "${ctx.catalog}.${ns}"`, `Grant ${name} ON SCHEMA ${ns}.`);
  }
  const ns = t.namespace.join('.') || '<schema>';
  throw invalidGrant(
    `${name} binds to the table level: ON ${what} names no table`,
    t.kind === 'view'
      ? `Name a view, or ALL VIEWS IN SCHEMA ${ns}.`
      : `Name a table, or ALL TABLES IN SCHEMA ${ns} for every table, now and later${p === 'DROP' && t.level === 'catalog' ? ' (DROP ON SCHEMA s: the schema itself)' : ''}.`,
  );
}

/**
 * The writes of a GRANT (or DENY) of one privilege: traversal levels above
 * (USAGE), then the privilege's own level. A DENY writes its own level only,
 * with the types that make the privilege what it is (denyTypes): denying
 * traversal, or the reading a write carries, would take away more than was named.
 */
export function planGrant(p: Privilege, t: Target, ctx: PlanContext, deny: boolean): LevelWrite[] {
  checkLevel(p, t, ctx);
  if (deny) return [{ ...planOwnLevel(p, t, ctx), types: denyTypes(p, t.level, t.kind)! }];
  const out: LevelWrite[] = [];
  for (const up of traversalAbove(t.level, t.kind)) {
    const { resource, display } = resourceAt(up.level, t, ctx);
    out.push({ level: up.level, resource, display, types: up.types, privilege: 'USAGE', kind: t.kind, traversal: true });
  }
  out.push(planOwnLevel(p, t, ctx));
  return out;
}

/** The privilege's own level with everything it grants there (what CHECK ACCESS asks, what REVOKE takes back). */
export function planOwnLevel(p: Privilege, t: Target, ctx: PlanContext): LevelWrite {
  checkLevel(p, t, ctx);
  const { resource, display } = resourceAt(t.level, t, ctx);
  return { level: t.level, resource, display, types: ownTypes(p, t.level, t.kind)!, privilege: p, kind: t.kind, traversal: false };
}

/** REVOKE touches the deepest level only: traversal policies are shared with other grants. */
export const planRevoke = planOwnLevel;

/** `chm:<TYPE>:<name>:<PRIVILEGE>`: which grant put an access type there, so REVOKE can hold back what another still needs. */
export function grantLabel(g: Grantee, p: Privilege, kind: TargetKind, deny: boolean): string {
  return `chm:${g.type}:${g.name}:${deny ? 'DENY_' : ''}${kind === 'view' ? 'VIEW_' : ''}${p}`;
}

const LABEL = new RegExp(`^chm:(USER|ROLE|GROUP):(.*):(DENY_)?(VIEW_)?(${PRIVILEGES.join('|')})$`);

/** A label this module wrote (or the control plane, in the same vocabulary); null for any other, which is never trusted. */
export function parseLabel(label: string): { grantee: Grantee; privilege: Privilege; kind: TargetKind; deny: boolean } | null {
  const m = LABEL.exec(label);
  if (!m) return null;
  return { grantee: { type: m[1] as Grantee['type'], name: m[2]! }, deny: m[3] !== undefined, kind: m[4] ? 'view' : 'table', privilege: m[5] as Privilege };
}

/**
 * `chm-grantor:<KIND>:<grantee>:<grantor>` (sqe's form): who granted this
 * grantee on the policy. KIND is USER or ROLE (a group is the Ranger role of its
 * name, as sqe labels it), so REVOKE can drop one grantee's grantor and SHOW
 * GRANTS can tell each grantee's row its own.
 */
export function grantorLabel(g: Grantee, grantor: string): string {
  return `chm-grantor:${g.type === 'USER' ? 'USER' : 'ROLE'}:${g.name}:${grantor}`;
}

const GRANTOR_LABEL = /^chm-grantor:(USER|ROLE|GROUP):(.+):([^:]+)$/;

/**
 * A grantor label: sqe's (the grantee named; a name may hold `:`, the grantor
 * is after the last one) or lakegate's earlier `chm-grantor:<grantor>`, which
 * names no grantee (`grantee` null: it is every grantee's on that policy).
 */
export function parseGrantorLabel(label: string): { grantee: { field: 'users' | 'roles'; name: string } | null; grantor: string } | null {
  if (!label.startsWith('chm-grantor:')) return null;
  const m = GRANTOR_LABEL.exec(label);
  if (m) return { grantee: { field: m[1] === 'USER' ? 'users' : 'roles', name: m[2]! }, grantor: m[3]! };
  const grantor = label.slice('chm-grantor:'.length);
  return grantor === '' ? null : { grantee: null, grantor };
}
