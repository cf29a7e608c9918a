/**
 * ALTER TABLE t ADD COLUMN | DROP COLUMN | ALTER COLUMN … TYPE | ALTER COLUMN
 * … DROP NOT NULL, one action a statement, as Iceberg's schema evolution
 * allows them: a new column is optional (the extension cannot add a required
 * one, nor a default), a type only widens (integer → bigint, real → double
 * precision, numeric(p,s) → numeric(p',s) with p' ≥ p), a required column may
 * become optional. Ranger's `alter` on the table decides (the Hive plugin's
 * ALTERTABLE_*), refused as PostgreSQL refuses a non-owner.
 */
import { SqlError, notSupported, pos } from '../errors.js';
import type { ParsedStatement } from '../parse.js';
import type { Fields } from '../walk.js';
import type { WriteContext } from './context.js';
import { columnOf } from './createTable.js';
import { findWriteRelation, quoteIdent, writtenName, type WriteRelation } from './names.js';
import { columnDoesNotExist, columnExists, doesNotExist, nothing } from './notices.js';
import type { CatalogWrite, EngineWrite, WriteTarget } from './plan.js';
import { columnTypeFor } from './types.js';

/** The relation an ALTER names, owned by the user in Ranger's terms (`alter`), or a reason it is not. */
export interface Altered {
  target: WriteTarget;
  /** the name PostgreSQL's messages give it */
  name: string;
  columns: readonly { name: string; duckType: string; nullable: boolean }[];
  relation: Exclude<WriteRelation, { kind: 'system' }>;
}

const ownerDenial = (kind: 'table' | 'view', name: string) => new SqlError('42501', `must be owner of ${kind} ${name}`);

/** Resolve an altered relation and check Ranger's `alter` on it; null when missing under IF EXISTS. */
export function alteredRelation(relation: Fields, missingOk: boolean, ctx: WriteContext): Altered | null {
  const written = writtenName(relation);
  const r = findWriteRelation(written, ctx);
  if (!r) {
    if (missingOk) return null;
    throw new SqlError('42P01', `relation "${written.schema !== undefined ? `${written.schema}.` : ''}${written.name}" does not exist`, pos(written.location));
  }
  if (r.kind === 'system') throw ownerDenial(r.relkind === 'v' ? 'view' : 'table', r.name);
  if (r.kind === 'table') {
    ctx.policy.require([{ access: 'alter', resource: { database: r.table.resource.database, table: r.table.resource.table }, denial: ownerDenial('table', r.table.name) }]);
    return { target: r.target, name: r.table.name, columns: r.table.columns, relation: r };
  }
  if (r.kind === 'view') {
    ctx.policy.require([{ access: 'alter', resource: { database: r.view.schema, table: r.view.name }, denial: ownerDenial('view', r.view.name) }]);
    return { target: r.target, name: r.view.name, columns: r.view.columns, relation: r };
  }
  return { target: r.target, name: r.table.name, columns: r.table.columns, relation: r };
}

const ACTION_NAMES: Readonly<Record<string, string>> = {
  AT_AddColumn: 'ADD COLUMN',
  AT_DropColumn: 'DROP COLUMN',
  AT_AlterColumnType: 'ALTER COLUMN TYPE',
  AT_DropNotNull: 'ALTER COLUMN DROP NOT NULL',
  AT_SetNotNull: 'ALTER COLUMN SET NOT NULL',
  AT_ColumnDefault: 'ALTER COLUMN SET DEFAULT',
};

/** `DECIMAL(p,s)` → [p, s]. */
const decimal = (t: string): [number, number] | null => {
  const m = /^DECIMAL\((\d+),\s*(\d+)\)$/i.exec(t.trim());
  return m ? [Number(m[1]), Number(m[2])] : null;
};

/** Whether Iceberg lets a column of type `from` become `to` (its type promotions). */
export function icebergWidens(from: string, to: string): boolean {
  const f = from.trim().toUpperCase();
  const t = to.trim().toUpperCase();
  if (f === 'INTEGER' && t === 'BIGINT') return true;
  if (f === 'FLOAT' && t === 'DOUBLE') return true;
  const df = decimal(f);
  const dt = decimal(t);
  return df !== null && dt !== null && df[1] === dt[1] && dt[0] >= df[0];
}

const sameType = (a: string, b: string): boolean => a.replace(/\s+/g, '').toUpperCase() === b.replace(/\s+/g, '').toUpperCase();

export function planAlterTable(stmt: ParsedStatement, ctx: WriteContext): EngineWrite | CatalogWrite {
  const a = stmt.node['AlterTableStmt']!;
  if (a['objtype'] !== 'OBJECT_TABLE') throw notSupported(`ALTER ${String(a['objtype']).replace(/^OBJECT_/, '').replace(/_/g, ' ')} with these actions`);
  const cmds = ((a['cmds'] ?? []) as Fields[]).map((c) => c['AlterTableCmd'] as Fields);
  if (cmds.length !== 1) {
    throw new SqlError('0A000', 'several actions in one ALTER TABLE are not supported', undefined, { hint: 'Write one ALTER TABLE per action.' });
  }
  const cmd = cmds[0]!;
  const subtype = String(cmd['subtype']);
  const relation = a['relation'] as Fields;
  const t = alteredRelation(relation, a['missing_ok'] === true, ctx);
  if (!t) return nothing('ALTER TABLE', doesNotExist('relation', String(relation['relname'])));
  if (t.relation.kind === 'view') {
    throw new SqlError('42809', `ALTER action ${ACTION_NAMES[subtype] ?? subtype} cannot be performed on relation "${t.name}"`, undefined, { detail: 'This operation is not supported for views.' });
  }
  const temporary = t.target.kind === 'temp';
  const alter = `ALTER TABLE ${t.target.engineName}`;
  const engine = (sql: string, extra: Partial<EngineWrite> = {}): EngineWrite => ({ kind: 'engine', tag: 'ALTER TABLE', sql, counts: false, target: t.target, ddl: true, ...extra });
  const existing = (name: string) => t.columns.find((c) => c.name === name);
  switch (subtype) {
    case 'AT_AddColumn': {
      const def = cmd['def']['ColumnDef'] as Fields;
      const col = columnOf(def, temporary);
      if (existing(col.name)) {
        if (cmd['missing_ok']) return nothing('ALTER TABLE', columnExists(col.name, t.name));
        throw new SqlError('42701', `column "${col.name}" of relation "${t.name}" already exists`);
      }
      if (!col.nullable) {
        throw new SqlError('0A000', `adding the NOT NULL column "${col.name}" is not supported: the rows already written have no value for it`, undefined, {
          hint: 'Add the column without NOT NULL.',
        });
      }
      return engine(`${alter} ADD COLUMN ${quoteIdent(col.name)} ${col.duckType}`, { created: [col] });
    }
    case 'AT_DropColumn': {
      const name = String(cmd['name']);
      if (!existing(name)) {
        if (cmd['missing_ok']) return nothing('ALTER TABLE', columnDoesNotExist(name, t.name));
        throw new SqlError('42703', `column "${name}" of relation "${t.name}" does not exist`);
      }
      if (t.columns.length === 1) throw notSupported('dropping the only column of a table');
      return engine(`${alter} DROP COLUMN ${quoteIdent(name)}`);
    }
    case 'AT_AlterColumnType': {
      const name = String(cmd['name']);
      const def = cmd['def']['ColumnDef'] as Fields;
      if (def['raw_default']) throw notSupported('ALTER COLUMN TYPE … USING (Iceberg changes a type without rewriting the data)');
      const col = existing(name);
      if (!col) throw new SqlError('42703', `column "${name}" of relation "${t.name}" does not exist`);
      const to = columnTypeFor(name, def['typeName'] as Fields, temporary);
      if (sameType(col.duckType, to.duckType)) return { kind: 'catalog', tag: 'ALTER TABLE', op: { op: 'nothing' } };
      if (!temporary && (to.pgType !== undefined || !icebergWidens(col.duckType, to.duckType))) {
        throw new SqlError('0A000', `cannot change the type of column "${name}" from ${col.duckType.toLowerCase()} to ${to.duckType.toLowerCase()}`, undefined, {
          hint: 'Iceberg changes a type only to a wider one: integer → bigint, real → double precision, numeric(p,s) → numeric(p2,s) with p2 ≥ p.',
        });
      }
      return engine(`${alter} ALTER COLUMN ${quoteIdent(name)} TYPE ${to.duckType}`);
    }
    case 'AT_DropNotNull': {
      const name = String(cmd['name']);
      if (!existing(name)) throw new SqlError('42703', `column "${name}" of relation "${t.name}" does not exist`);
      return engine(`${alter} ALTER COLUMN ${quoteIdent(name)} DROP NOT NULL`);
    }
    case 'AT_SetNotNull':
      throw new SqlError('0A000', 'ALTER COLUMN SET NOT NULL is not supported: Iceberg cannot make an optional column required');
    default:
      throw notSupported(`ALTER TABLE … ${ACTION_NAMES[subtype] ?? subtype.replace(/^AT_/, '')}`);
  }
}
