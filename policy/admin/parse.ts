/**
 * Access-control statements from text. The standard forms (GRANT / REVOKE as
 * PostgreSQL writes them) are parsed with PostgreSQL's own grammar
 * (libpg-query's GrantStmt); the rest with grammar.ts. A bare grantee (`TO
 * dave`) is a user: the login role is who PostgreSQL grants to.
 */
import { SqlError } from '../../sql/errors.js';
import { parseStatements } from '../../sql/parse.js';
import { checkName, isAdminText, meaningOf, parseAdminGrammar, type WrittenPrivilege } from './grammar.js';
import type { AdminStatement, Grantee, ObjectRef } from './statement.js';
import { ownTable } from '../../sql/ownNames.js';

export { isAdminText };

type Fields = Record<string, unknown>;

const PG_PRIVILEGES: Record<string, WrittenPrivilege> = ownTable({
  select: 'SELECT',
  insert: 'INSERT',
  update: 'UPDATE',
  delete: 'DELETE',
  truncate: 'TRUNCATE',
  alter: 'ALTER',
  drop: 'DROP',
  usage: 'USAGE',
  create: 'CREATE_ANY',
});

/**
 * The statement, or null when the text is PostgreSQL's but not ours (GRANT
 * role TO user, GRANT on a sequence …): the router refuses it as before.
 */
export function parseAdmin(sql: string): AdminStatement | null {
  const first = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase();
  if (first === 'GRANT' || first === 'REVOKE') {
    let stmts;
    try {
      stmts = parseStatements(sql);
    } catch {
      stmts = null; // not PostgreSQL's grammar: ours decides, with its own position
    }
    if (stmts) {
      if (stmts.length !== 1) throw new SqlError('42601', 'an access-control statement must be the only statement of its message');
      if (stmts[0]!.kind !== 'GrantStmt') return null;
      return fromGrantStmt(sql, stmts[0]!.node['GrantStmt'] as Fields);
    }
  }
  return parseAdminGrammar(sql);
}

function fromGrantStmt(sql: string, g: Fields): AdminStatement | null {
  const objtype = g['objtype'] as string;
  const targtype = g['targtype'] as string;
  const objects = (g['objects'] as Fields[] | undefined) ?? [];
  if (g['is_grant'] !== true && g['grant_option'] === true) {
    // Not a REVOKE of the privilege: taking only the grant option back is not implemented.
    throw new SqlError('0A000', 'REVOKE GRANT OPTION FOR is not supported: revoke the privilege and grant it again without the option');
  }
  if (targtype === 'ACL_TARGET_DEFAULTS' || objects.length !== 1) {
    throw new SqlError('0A000', 'GRANT / REVOKE names exactly one object in lakegate');
  }
  const written: WrittenPrivilege[] = [];
  for (const p of (g['privileges'] as Fields[] | undefined) ?? []) {
    const ap = p['AccessPriv'] as Fields;
    if (ap['cols']) throw new SqlError('0A000', 'column privileges are not supported: Polaris grants whole tables (use masks for columns)');
    const name = ap['priv_name'] as string;
    const priv = PG_PRIVILEGES[name];
    if (!priv) throw new SqlError('0A000', `privilege ${name.toUpperCase()} is not supported (SELECT, INSERT, UPDATE, DELETE, TRUNCATE, ALTER, DROP, USAGE, CREATE, ALL)`);
    written.push(priv);
  }
  if (written.length === 0) written.push('ALL');
  let object: ObjectRef;
  const obj = objects[0]!;
  if (targtype === 'ACL_TARGET_ALL_IN_SCHEMA') {
    if (objtype !== 'OBJECT_TABLE') return null;
    object = { kind: 'all-tables', parts: nameOf(obj) };
  } else if (objtype === 'OBJECT_TABLE') {
    const rv = obj['RangeVar'] as Fields;
    const parts = [rv['catalogname'], rv['schemaname'], rv['relname']].filter((x): x is string => typeof x === 'string');
    object = { kind: 'table', parts: parts.map((p) => checkName(p, (rv['location'] as number) ?? 0)) };
  } else if (objtype === 'OBJECT_SCHEMA') {
    object = { kind: 'schema', parts: nameOf(obj) };
  } else if (objtype === 'OBJECT_DATABASE') {
    object = { kind: 'database', parts: nameOf(obj) };
  } else {
    return null;
  }
  const grantees: Grantee[] = ((g['grantees'] as Fields[]) ?? []).map((r) => {
    const rs = r['RoleSpec'] as Fields;
    if (rs['roletype'] !== 'ROLESPEC_CSTRING') {
      throw new SqlError('0A000', 'grant to PUBLIC, CURRENT_USER or SESSION_USER is not supported: name a user, role or group', ((rs['location'] as number) ?? -1) + 1 || undefined);
    }
    const at = rs['location'] as number;
    // PostgreSQL's grammar drops the GROUP keyword; the text before the name still has it.
    const group = /\bgroup\s+$/i.test(sql.slice(Math.max(0, at - 16), at));
    return { type: group ? 'GROUP' : 'USER', name: checkName(rs['rolename'] as string, at) };
  });
  return {
    kind: g['is_grant'] ? 'grant' : 'revoke',
    privileges: meaningOf(written, object),
    object,
    grantees,
    grantOption: g['grant_option'] === true && g['is_grant'] === true,
  };
}

function nameOf(obj: Fields): string[] {
  const s = obj['String'] as Fields | undefined;
  if (!s) throw new SqlError('0A000', 'unsupported object name');
  return [checkName(s['sval'] as string, 0)];
}
