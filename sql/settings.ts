/**
 * pg_settings as a per-statement relation: the session's values come from
 * ctx.settings, the rest are what a PostgreSQL 16 server reports. Clients read
 * standard_conforming_strings (libpq escaping), max_index_keys (pgJDBC),
 * server_version and search_path from here.
 */
import { parseStatementsUncached } from './parse.js';
import { replaceNode, walk, type Fields, type PgNode } from './walk.js';

/** [name, default setting, vartype, unit, category] */
const KNOWN: readonly (readonly [string, string, string, string | null, string])[] = [
  ['application_name', '', 'string', null, 'Reporting and Logging / What to Log'],
  ['client_encoding', 'UTF8', 'string', null, 'Client Connection Defaults / Locale and Formatting'],
  ['DateStyle', 'ISO, MDY', 'string', null, 'Client Connection Defaults / Locale and Formatting'],
  ['default_transaction_isolation', 'read committed', 'enum', null, 'Client Connection Defaults / Statement Behavior'],
  ['default_transaction_read_only', 'on', 'bool', null, 'Client Connection Defaults / Statement Behavior'],
  ['extra_float_digits', '1', 'integer', null, 'Client Connection Defaults / Locale and Formatting'],
  ['integer_datetimes', 'on', 'bool', null, 'Preset Options'],
  ['IntervalStyle', 'postgres', 'enum', null, 'Client Connection Defaults / Locale and Formatting'],
  ['max_identifier_length', '63', 'integer', null, 'Preset Options'],
  ['max_index_keys', '32', 'integer', null, 'Preset Options'],
  ['search_path', '"$user", public', 'string', null, 'Client Connection Defaults / Statement Behavior'],
  ['server_encoding', 'UTF8', 'string', null, 'Preset Options'],
  ['server_version', '16.4 (lakegate)', 'string', null, 'Preset Options'],
  ['server_version_num', '160004', 'integer', null, 'Preset Options'],
  ['standard_conforming_strings', 'on', 'bool', null, 'Version and Platform Compatibility / Previous PostgreSQL Versions'],
  ['statement_timeout', '0', 'integer', 'ms', 'Client Connection Defaults / Statement Behavior'],
  ['TimeZone', 'UTC', 'string', null, 'Client Connection Defaults / Locale and Formatting'],
  ['transaction_isolation', 'read committed', 'string', null, 'Client Connection Defaults / Statement Behavior'],
  ['transaction_read_only', 'on', 'bool', null, 'Client Connection Defaults / Statement Behavior'],
];

const COLUMNS = [
  'name', 'setting', 'unit', 'category', 'short_desc', 'extra_desc', 'context', 'vartype', 'source', 'min_val',
  'max_val', 'enumvals', 'boot_val', 'reset_val', 'sourcefile', 'sourceline', 'pending_restart',
];

const lit = (s: string | null): string => (s === null ? 'NULL' : `'${s.replace(/'/g, "''")}'`);

export function settingsRelation(settings: (name: string) => string | undefined, alias: Fields | undefined): PgNode {
  const rows = KNOWN.map(([name, def, vartype, unit, category]) => {
    const value = settings(name.toLowerCase()) ?? def;
    // a value the session changed (SET, or a startup parameter) is not the default: psql's \dconfig lists those
    const source = value === def ? 'default' : 'session';
    // NULL columns typed as pg_settings types them (an untyped NULL would be int4)
    const [a, b, c] = [name, value, unit].map(lit);
    return `(${a}, ${b}, ${c}::text, ${[category, ''].map(lit).join(', ')}, NULL::text, ${[
      'user', vartype, source].map(lit).join(', ')}, NULL::text, NULL::text, NULL::text[], ${[def, value].map(lit).join(', ')}, NULL::text, NULL::integer, false)`;
  });
  const aliasName = String(alias?.['aliasname'] ?? 'pg_settings');
  const text = `SELECT * FROM (VALUES ${rows.join(', ')}) AS s(${COLUMNS.join(', ')})`;
  const select = parseStatementsUncached(text)[0]!.node['SelectStmt']!;
  const from = (select['fromClause'] as PgNode[])[0]!;
  // keep the user's alias so `s.setting` style references still bind
  const sub: PgNode = { RangeSubselect: { subquery: { SelectStmt: select }, alias: { aliasname: aliasName } } };
  select['fromClause'] = [from];
  return sub;
}

/**
 * current_setting(expr) for a name known only per row (psql's \dconfig:
 * `current_setting(s.name) FROM pg_settings s`): a scalar subquery over the
 * settings pg_settings lists. A name it does not list gives NULL, where
 * PostgreSQL raises 42704.
 */
export function settingLookup(settings: (name: string) => string | undefined, arg: PgNode): PgNode {
  const rows = KNOWN.map(([name, def]) => `(${lit(name.toLowerCase())}, ${lit(settings(name.toLowerCase()) ?? def)})`);
  const text = `SELECT (SELECT lg_s.setting FROM (VALUES ${rows.join(', ')}) AS lg_s(name, setting) WHERE lg_s.name = lower(lg_setting_arg))`;
  const select = parseStatementsUncached(text)[0]!.node['SelectStmt']!;
  const sub = (select['targetList'] as Fields[])[0]!['ResTarget']!['val'] as PgNode;
  walk(sub, (v) => {
    if (v.kind === 'ColumnRef' && JSON.stringify(v.fields).includes('lg_setting_arg')) {
      replaceNode(v.node, arg);
      return false;
    }
  });
  return sub;
}
