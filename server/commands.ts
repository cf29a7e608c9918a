/**
 * SET, SHOW and RESET, answered from the session's settings.
 */
import type { NoticeFields } from '../protocol/backend.js';
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
  /** PostgreSQL's warning for SET LOCAL / SET TRANSACTION outside a block (which then changes nothing). */
  notice?: NoticeFields;
}

/** Where the SET runs: in a transaction block or not, and whether the block already ran a query. */
export interface SetContext {
  inBlock: boolean;
  queried: boolean;
}

const outsideBlock = (what: string): SetOutcome => ({
  changed: [],
  notice: { severity: 'WARNING', code: SqlState.noActiveSqlTransaction, message: `${what} can only be used in transaction blocks` },
});

/** The transaction characteristics BEGIN / SET TRANSACTION take, as (setting, value) pairs. */
export function transactionOptions(options: Fields[] | undefined): [string, string][] {
  return (options ?? []).map((opt) => {
    const el = opt['DefElem'] as Fields;
    const raw = constText(el['arg']);
    const name = el['defname'] as string;
    if (name === 'transaction_deferrable') return ['transaction_deferrable', raw];
    return [name, name.endsWith('read_only') ? (raw === '1' ? 'on' : raw === '0' ? 'off' : raw) : raw];
  });
}

/** Apply a VariableSetStmt. */
export function applySet(settings: SessionSettings, stmt: Fields, ctx: SetContext = { inBlock: false, queried: false }): SetOutcome {
  const kind = stmt['kind'] as string;
  const name = stmt['name'] as string | undefined;
  const local = stmt['is_local'] === true;
  if (local && !ctx.inBlock) return outsideBlock('SET LOCAL');
  const changed: string[] = [];
  const record = (c: string | null) => c && changed.push(c);
  const txSetting = (n: string) => ['transaction_isolation', 'transaction_read_only', 'transaction_deferrable'].includes(n.toLowerCase());
  switch (kind) {
    case 'VAR_SET_VALUE': {
      const args = (stmt['args'] as Fields[] | undefined) ?? [];
      const def = settingDef(name!);
      if (txSetting(def.name) && !ctx.inBlock) return outsideBlock('SET TRANSACTION');
      if (def.name === 'transaction_isolation' && ctx.queried) {
        throw new PgError(SqlState.activeSqlTransaction, 'SET TRANSACTION ISOLATION LEVEL must be called before any query');
      }
      let value: string;
      if (def.name === 'search_path') value = args.map((a) => quoteIfNeeded(constText(a))).join(', ');
      else if (args.length !== 1) throw new PgError(SqlState.syntaxError, `SET ${def.name} takes only one argument`);
      else value = constText(args[0]!);
      record(settings.set(def.name, value, local));
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
      if (name !== 'SESSION CHARACTERISTICS' && !ctx.inBlock) return outsideBlock('SET TRANSACTION');
      for (const [setting, value] of transactionOptions(stmt['args'] as Fields[] | undefined)) {
        if (setting === 'transaction_deferrable') continue; // only meaningful for serializable read-only blocks, which every block here is
        if (name === 'SESSION CHARACTERISTICS') {
          record(settings.set(`default_${setting}`, value));
          continue;
        }
        if (setting === 'transaction_isolation' && ctx.queried) {
          throw new PgError(SqlState.activeSqlTransaction, 'SET TRANSACTION ISOLATION LEVEL must be called before any query');
        }
        record(settings.set(setting, value, true));
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
