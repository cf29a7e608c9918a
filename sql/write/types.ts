/**
 * The column types a table lakegate creates is given: PostgreSQL's types
 * mapped onto the Iceberg types DuckDB's iceberg extension writes (it
 * refuses TINYINT, SMALLINT, the unsigned integers, INTERVAL, JSON, TIME
 * WITH TIME ZONE, BIT, ENUM, fixed-size ARRAY and TIMESTAMP_NS; measured in
 * the write spike). A type no Iceberg column can hold is refused (0A000,
 * naming the column and the type) before anything is created or written.
 *
 * | PostgreSQL                                  | Iceberg (DuckDB type)        | read back as                 |
 * |---------------------------------------------|------------------------------|------------------------------|
 * | boolean                                     | boolean (BOOLEAN)            | boolean                      |
 * | smallint, integer                           | int (INTEGER)                | integer                      |
 * | bigint                                      | long (BIGINT)                | bigint                       |
 * | real / double precision                     | float / double               | real / double precision      |
 * | numeric(p,s), p ≤ 38                        | decimal(p,s)                 | numeric(p,s)                 |
 * | numeric(p)                                  | decimal(p,0)                 | numeric(p,0)                 |
 * | numeric (no precision)                      | decimal(38,9)                | numeric(38,9)                |
 * | text, varchar(n), char(n), name             | string (VARCHAR)             | text                         |
 * | bytea                                       | binary (BLOB)                | bytea                        |
 * | date / time                                 | date / time                  | date / time                  |
 * | timestamp / timestamptz                     | timestamp / timestamptz      | timestamp / timestamptz      |
 * | uuid                                        | uuid                         | uuid                         |
 * | json, jsonb                                 | string, type kept            | json, jsonb (kept)           |
 * | T[] (one dimension, T above)                | list<T>                      | T[]                          |
 * | interval, timetz, money, bit, inet, xml …   | refused, 0A000               |                              |
 *
 * A temporary table lives in the engine only, so it keeps every type the
 * engine has (smallint stays SMALLINT, interval INTERVAL …).
 */
import { SqlError, pos } from '../errors.js';
import { names, type Fields } from '../walk.js';
import { ownTable } from '../ownNames.js';

/** The precision and scale numeric without a typmod is stored with: Iceberg's decimals have a fixed scale. */
export const UNCONSTRAINED_NUMERIC = { precision: 38, scale: 9 } as const;
const MAX_DECIMAL_PRECISION = 38;

export const cannotHold = (column: string, type: string, location?: unknown): SqlError =>
  new SqlError('0A000', `column "${column}" has type ${type}, which an Iceberg table cannot hold`, pos(location), {
    hint: 'Cast the column to a type Iceberg has (text, numeric, bigint, timestamp …).',
  });

/** A column's type for CREATE TABLE: what the engine creates it with, and the PostgreSQL type to keep where the engine's would not say it. */
export interface ColumnType {
  duckType: string;
  pgType?: string;
}

interface Mapped {
  /** the Iceberg table's type (undefined: Iceberg has none) */
  iceberg?: string;
  /** a temporary table's */
  engine: string;
  kept?: string;
}

/** PostgreSQL's type names (as the grammar leaves them) → the engine's. */
const BY_NAME: Readonly<Record<string, Mapped>> = ownTable({
  bool: { iceberg: 'BOOLEAN', engine: 'BOOLEAN' },
  int2: { iceberg: 'INTEGER', engine: 'SMALLINT' },
  int4: { iceberg: 'INTEGER', engine: 'INTEGER' },
  int8: { iceberg: 'BIGINT', engine: 'BIGINT' },
  float4: { iceberg: 'FLOAT', engine: 'FLOAT' },
  float8: { iceberg: 'DOUBLE', engine: 'DOUBLE' },
  text: { iceberg: 'VARCHAR', engine: 'VARCHAR' },
  varchar: { iceberg: 'VARCHAR', engine: 'VARCHAR' },
  bpchar: { iceberg: 'VARCHAR', engine: 'VARCHAR' },
  name: { iceberg: 'VARCHAR', engine: 'VARCHAR' },
  bytea: { iceberg: 'BLOB', engine: 'BLOB' },
  date: { iceberg: 'DATE', engine: 'DATE' },
  time: { iceberg: 'TIME', engine: 'TIME' },
  timestamp: { iceberg: 'TIMESTAMP', engine: 'TIMESTAMP' },
  timestamptz: { iceberg: 'TIMESTAMP WITH TIME ZONE', engine: 'TIMESTAMP WITH TIME ZONE' },
  uuid: { iceberg: 'UUID', engine: 'UUID' },
  json: { iceberg: 'VARCHAR', engine: 'VARCHAR', kept: 'json' },
  jsonb: { iceberg: 'VARCHAR', engine: 'VARCHAR', kept: 'jsonb' },
  interval: { engine: 'INTERVAL' },
  timetz: { engine: 'TIME WITH TIME ZONE' },
});

/** How PostgreSQL names a type in its messages (format_type), for the ones a user may write. */
const DISPLAY: Readonly<Record<string, string>> = ownTable({
  bool: 'boolean', int2: 'smallint', int4: 'integer', int8: 'bigint', float4: 'real', float8: 'double precision',
  varchar: 'character varying', bpchar: 'character', timestamp: 'timestamp without time zone',
  timestamptz: 'timestamp with time zone', time: 'time without time zone', timetz: 'time with time zone',
  varbit: 'bit varying',
});

const SERIALS = new Set(['serial', 'serial4', 'bigserial', 'serial8', 'smallserial', 'serial2']);

function typmodsOf(tn: Fields): number[] | null {
  const out: number[] = [];
  for (const m of (tn['typmods'] ?? []) as Fields[]) {
    const ival = m['A_Const']?.['ival'];
    if (ival === undefined) return null;
    out.push(Number(ival['ival'] ?? 0));
  }
  return out;
}

/** The type as PostgreSQL prints it in an error: `interval`, `money`, `bit(3)`, `integer[]`. */
export function displayType(tn: Fields): string {
  const parts = names(tn['names']);
  const base = parts[parts.length - 1] ?? '?';
  const mods = typmodsOf(tn);
  const shown = (DISPLAY[base] ?? base) + (mods && mods.length > 0 ? `(${mods.join(',')})` : '');
  return shown + '[]'.repeat(((tn['arrayBounds'] ?? []) as unknown[]).length);
}

/**
 * The type a column declared in CREATE TABLE / ALTER TABLE is created with.
 * `temporary`: a temporary table (the engine's types, no Iceberg limits).
 */
export function columnTypeFor(column: string, tn: Fields, temporary: boolean): ColumnType {
  const parts = names(tn['names']);
  if (tn['setof'] || tn['pct_type'] || parts.length > 2 || (parts.length === 2 && parts[0] !== 'pg_catalog')) {
    throw temporary ? new SqlError('0A000', `type ${parts.join('.')} is not supported`, pos(tn['location'])) : cannotHold(column, displayType(tn), tn['location']);
  }
  const base = parts[parts.length - 1]!;
  const bounds = ((tn['arrayBounds'] ?? []) as unknown[]).length;
  if (SERIALS.has(base)) {
    throw new SqlError('0A000', `column "${column}" is ${base}, which needs a sequence: lakegate creates no sequences`, pos(tn['location']), {
      hint: 'Declare the column integer or bigint and give its values yourself.',
    });
  }
  if (bounds > 1) throw cannotHold(column, displayType(tn), tn['location']);
  const element = elementType(column, base, tn, temporary);
  if (bounds === 0) return element;
  // a list of json values reads back as text[]: the kept type names only a column's own values
  if (element.pgType !== undefined) throw cannotHold(column, displayType(tn), tn['location']);
  return { duckType: `${element.duckType}[]` };
}

function elementType(column: string, base: string, tn: Fields, temporary: boolean): ColumnType {
  if (base === 'numeric' || base === 'decimal') return numericType(column, tn, temporary);
  const mapped = Object.hasOwn(BY_NAME, base) ? BY_NAME[base]! : undefined;
  const duck = mapped && (temporary ? mapped.engine : mapped.iceberg);
  if (!mapped || !duck) throw cannotHold(column, displayType(tn), tn['location']);
  return mapped.kept ? { duckType: duck, pgType: mapped.kept } : { duckType: duck };
}

function numericType(column: string, tn: Fields, temporary: boolean): ColumnType {
  const mods = typmodsOf(tn);
  if (!mods || mods.length > 2) throw cannotHold(column, displayType(tn), tn['location']);
  if (mods.length === 0) return { duckType: `DECIMAL(${UNCONSTRAINED_NUMERIC.precision},${UNCONSTRAINED_NUMERIC.scale})` };
  const [precision, scale = 0] = mods as [number, number?];
  if (precision < 1 || precision > 1000) {
    throw new SqlError('22023', `NUMERIC precision ${precision} must be between 1 and 1000`, pos(tn['location']));
  }
  if (precision > MAX_DECIMAL_PRECISION || scale < 0 || scale > precision) {
    if (temporary) throw new SqlError('0A000', `numeric(${precision},${scale}) is not supported: the engine's decimals hold 38 digits at most, with a scale from 0 to the precision`, pos(tn['location']));
    throw new SqlError('0A000', `column "${column}" has type numeric(${precision},${scale}), which an Iceberg table cannot hold`, pos(tn['location']), {
      hint: 'Iceberg decimals hold at most 38 digits, with a scale from 0 to the precision.',
    });
  }
  return { duckType: `DECIMAL(${precision},${scale})` };
}

// ---------------------------------------------------------------- from the engine's result types

/** PostgreSQL's names of the engine types no Iceberg column holds, for the refusal. */
const ENGINE_DISPLAY: Readonly<Record<string, string>> = ownTable({
  INTERVAL: 'interval',
  'TIME WITH TIME ZONE': 'time with time zone',
  TIMETZ: 'time with time zone',
  BIT: 'bit varying',
  BITSTRING: 'bit varying',
  VARINT: 'numeric',
  BIGNUM: 'numeric',
});

/** Engine types written as the Iceberg type that holds every value of theirs. */
const WIDENED: Readonly<Record<string, string>> = ownTable({
  BOOLEAN: 'BOOLEAN',
  TINYINT: 'INTEGER',
  SMALLINT: 'INTEGER',
  INTEGER: 'INTEGER',
  UTINYINT: 'INTEGER',
  USMALLINT: 'INTEGER',
  BIGINT: 'BIGINT',
  UINTEGER: 'BIGINT',
  UBIGINT: 'DECIMAL(38,0)',
  HUGEINT: 'DECIMAL(38,0)',
  UHUGEINT: 'DECIMAL(38,0)',
  FLOAT: 'FLOAT',
  DOUBLE: 'DOUBLE',
  VARCHAR: 'VARCHAR',
  JSON: 'VARCHAR',
  BLOB: 'BLOB',
  DATE: 'DATE',
  TIME: 'TIME',
  TIMESTAMP: 'TIMESTAMP',
  TIMESTAMP_S: 'TIMESTAMP',
  TIMESTAMP_MS: 'TIMESTAMP',
  // PostgreSQL's timestamps have microseconds; Iceberg v2's too (timestamp_ns is v3)
  TIMESTAMP_NS: 'TIMESTAMP',
  'TIMESTAMP WITH TIME ZONE': 'TIMESTAMP WITH TIME ZONE',
  TIMESTAMPTZ: 'TIMESTAMP WITH TIME ZONE',
  UUID: 'UUID',
});

/** Splits `a, b(c, d), e` at its top-level commas. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '(') depth++;
    else if (!quoted && ch === ')') depth--;
    else if (!quoted && depth === 0 && ch === ',') {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out;
}

/** A STRUCT entry `"name" TYPE` or `name TYPE`: its name and type. */
function structEntry(entry: string): [string, string] {
  const m = /^("(?:[^"]|"")*"|[^\s"]+)\s+(.+)$/s.exec(entry);
  if (!m) throw new Error(`unreadable STRUCT entry ${entry}`);
  const raw = m[1]!;
  const name = raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw;
  return [name, m[2]!];
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * The type to create an Iceberg column with for a query column the engine
 * typed `duckType` (as DuckDB prints it: `DECIMAL(10,2)`, `INTEGER[]`,
 * `STRUCT(a INTEGER)`), or 0A000 naming the column and its PostgreSQL type
 * (`pgType` where the planner knows it better than the engine: interval,
 * jsonb). For CREATE TABLE AS.
 */
export function icebergColumnFor(column: string, duckType: string, pgType?: string): string {
  const refuse = (t: string): SqlError => cannotHold(column, pgType ?? ENGINE_DISPLAY[t.toUpperCase()] ?? t.toLowerCase());
  const map = (t: string): string => {
    const type = t.trim();
    const upper = type.toUpperCase();
    if (Object.hasOwn(WIDENED, upper)) return WIDENED[upper]!;
    const decimal = /^DECIMAL\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)$/i.exec(type);
    if (decimal) return `DECIMAL(${Number(decimal[1])},${Number(decimal[2])})`;
    if (/^ENUM\s*\(/i.test(type)) return 'VARCHAR';
    // a list (T[]); a fixed-size array (T[3]) Iceberg has not
    if (type.endsWith('[]')) return `${map(type.slice(0, -2))}[]`;
    const struct = /^STRUCT\s*\((.*)\)$/is.exec(type);
    if (struct) return `STRUCT(${splitTopLevel(struct[1]!).map(structEntry).map(([n, et]) => `${quoted(n)} ${map(et)}`).join(', ')})`;
    const mapType = /^MAP\s*\((.*)\)$/is.exec(type);
    if (mapType) {
      const kv = splitTopLevel(mapType[1]!);
      if (kv.length !== 2) throw refuse(type);
      return `MAP(${map(kv[0]!)}, ${map(kv[1]!)})`;
    }
    throw refuse(type);
  };
  return map(duckType);
}
