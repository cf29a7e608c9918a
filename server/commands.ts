/**
 * SET, SHOW and RESET, answered from the session's settings.
 */
import { PgError, SqlState } from '../protocol/errors.js';
import type { Fields } from '../sql/walk.js';
import { settingDef, type SessionSettings } from './settings.js';
import { textField, type TextResult } from './textResult.js';

/** The value of one SET argument as PostgreSQL would print it. */
function constText(node: Fields): string {
  const c = node['A_Const'] as Fields | undefined;
  if (c) {
    if (c['sval']) return String(c['sval']['sval'] ?? '');
    if (c['ival']) return String(c['ival']['ival'] ?? 0);
    if (c['fval']) return String(c['fval']['fval']);
    if (c['boolval']) return c['boolval']['boolval'] ? 'on' : 'off';
  }
  const cast = node['TypeCast'] as Fields | undefined;
  if (cast?.['arg']) return constText(cast['arg']);
  throw new PgError(SqlState.syntaxError, 'SET requires a constant value');
}

function quoteIfNeeded(schema: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(schema) || schema === '$user' ? (schema === '$user' ? '"$user"' : schema) : `"${schema.replace(/"/g, '""')}"`;
}

export interface SetOutcome {
  /** Settings whose reported value changed: the client gets ParameterStatus for each. */
  changed: string[];
}

/** Apply a VariableSetStmt. SET LOCAL is treated as SET: blocks are read-only and short. */
export function applySet(settings: SessionSettings, stmt: Fields): SetOutcome {
  const kind = stmt['kind'] as string;
  const name = stmt['name'] as string | undefined;
  const changed: string[] = [];
  const record = (c: string | null) => c && changed.push(c);
  switch (kind) {
    case 'VAR_SET_VALUE': {
      const args = (stmt['args'] as Fields[] | undefined) ?? [];
      const def = settingDef(name!);
      let value: string;
      if (def.name === 'search_path') value = args.map((a) => quoteIfNeeded(constText(a))).join(', ');
      else if (args.length !== 1) throw new PgError(SqlState.syntaxError, `SET ${def.name} takes only one argument`);
      else value = constText(args[0]!);
      record(settings.set(def.name, value));
      break;
    }
    case 'VAR_SET_DEFAULT':
    case 'VAR_RESET':
      changed.push(...settings.reset(name!));
      break;
    case 'VAR_RESET_ALL':
      changed.push(...settings.reset('ALL'));
      break;
    case 'VAR_SET_CURRENT':
      throw PgError.featureNotSupported('SET ... FROM CURRENT is not supported by lakegate');
    case 'VAR_SET_MULTI':
      // SET TRANSACTION … / SET SESSION CHARACTERISTICS AS TRANSACTION …
      for (const opt of (stmt['args'] as Fields[] | undefined) ?? []) {
        const el = opt['DefElem'] as Fields;
        const target = name === 'SESSION CHARACTERISTICS'
          ? `default_${el['defname'] as string}`
          : (el['defname'] as string);
        const raw = constText(el['arg']);
        record(settings.set(target, target.endsWith('read_only') ? (raw === '1' ? 'on' : raw === '0' ? 'off' : raw) : raw));
      }
      break;
    default:
      throw PgError.featureNotSupported(`SET form ${kind} is not supported by lakegate`);
  }
  return { changed };
}

export function show(settings: SessionSettings, name: string): TextResult {
  if (name.toLowerCase() === 'all') {
    return {
      fields: [textField('name'), textField('setting'), textField('description')],
      rows: settings.all().map((s) => [s.name, s.setting, s.description]),
      tag: 'SHOW',
    };
  }
  const def = settingDef(name);
  // PostgreSQL names the column after the parameter as the user wrote it for
  // aliases (SHOW TIME ZONE → "TimeZone"), else the canonical name.
  return { fields: [textField(def.name)], rows: [[settings.get(def.name)]], tag: 'SHOW' };
}
