/**
 * The types a statement itself gives its parameters (`$1::integer`), as PostgreSQL
 * types an unspecified parameter by its cast. ParameterDescription reports that type
 * (varchar is 1043, not the engine's text). And DuckDB leaves some such parameters
 * untyped at prepare — a cast parameter compared with a column of a wider type
 * (`bigint_col != $1::integer`): lakegate then decodes the value as the cast's type
 * and DuckDB binds the statement again with the value's type at Bind.
 */
import { BIGINT, BOOLEAN, DATE, DOUBLE, FLOAT, INTEGER, INTERVAL, SMALLINT, TIME, TIMESTAMP, TIMESTAMPTZ, UUID, VARCHAR, type DuckDBType } from '@duckdb/node-api';
import { walk, type PgNode } from './walk.js';

export interface DeclaredParam {
  /** PostgreSQL's type OID for the parameter */
  oid: number;
  /** the engine type its value is decoded to; undefined where only its text goes to the engine */
  duck?: DuckDBType;
}

/** PostgreSQL type names as the parser spells them. */
const BY_NAME: Record<string, DeclaredParam> = {
  int2: { oid: 21, duck: SMALLINT }, int4: { oid: 23, duck: INTEGER }, int8: { oid: 20, duck: BIGINT },
  float4: { oid: 700, duck: FLOAT }, float8: { oid: 701, duck: DOUBLE }, bool: { oid: 16, duck: BOOLEAN },
  text: { oid: 25, duck: VARCHAR }, varchar: { oid: 1043, duck: VARCHAR }, bpchar: { oid: 1042, duck: VARCHAR }, name: { oid: 19, duck: VARCHAR },
  date: { oid: 1082, duck: DATE }, time: { oid: 1083, duck: TIME }, timestamp: { oid: 1114, duck: TIMESTAMP },
  timestamptz: { oid: 1184, duck: TIMESTAMPTZ }, interval: { oid: 1186, duck: INTERVAL }, uuid: { oid: 2950, duck: UUID },
  // the OID alias types: the value is a name (or an OID) in text, resolved by the statement
  regclass: { oid: 2205 }, regtype: { oid: 2206 }, regnamespace: { oid: 4089 }, regproc: { oid: 24 },
};

/** Parameter number → the type of its first plain cast (not an array) in the statement. */
export function declaredParamTypes(node: PgNode): Map<number, DeclaredParam> {
  const out = new Map<number, DeclaredParam>();
  walk(node, (v) => {
    if (v.kind !== 'TypeCast') return;
    const arg = v.fields['arg'] as PgNode | undefined;
    const number = arg?.['ParamRef']?.['number'];
    if (typeof number !== 'number' || out.has(number)) return;
    const tn = v.fields['typeName'] as { names?: PgNode[]; typmods?: unknown[]; arrayBounds?: unknown[] } | undefined;
    if (tn?.arrayBounds?.length) return;
    const names = (tn?.names ?? []).map((n) => n?.['String']?.['sval'] as string | undefined);
    if (names.length > 2 || (names.length === 2 && names[0] !== 'pg_catalog')) return;
    const t = BY_NAME[names[names.length - 1] ?? ''];
    // a type modifier (varchar(10)) keeps the OID; the engine type is then the engine's own
    if (t) out.set(number, tn?.typmods?.length ? { oid: t.oid } : t);
  });
  return out;
}

/** Parameters that stand bare as the array of `x op ANY($n)` / `x op ALL($n)`. */
export function anyArrayParams(node: PgNode): Set<number> {
  const out = new Set<number>();
  walk(node, (v) => {
    if (v.kind !== 'A_Expr') return;
    const kind = String(v.fields['kind']);
    if (kind !== 'AEXPR_OP_ANY' && kind !== 'AEXPR_OP_ALL') return;
    const number = (v.fields['rexpr'] as PgNode | undefined)?.['ParamRef']?.['number'];
    if (typeof number === 'number') out.add(number);
  });
  return out;
}

/** PostgreSQL's name (for a cast) of an engine type the engine names in a message. */
const PG_NAME: Record<string, string> = {
  BOOLEAN: 'bool', TINYINT: 'int2', SMALLINT: 'int2', INTEGER: 'int4', BIGINT: 'int8', FLOAT: 'float4', DOUBLE: 'float8',
  DATE: 'date', TIME: 'time', TIMESTAMP: 'timestamp', 'TIMESTAMP WITH TIME ZONE': 'timestamptz', INTERVAL: 'interval',
  UUID: 'uuid', BLOB: 'bytea', VARCHAR: 'text',
};

/**
 * The left operand's type from the engine's refusal of `x = ANY(text[])` (DuckDB compares
 * no DATE with VARCHAR), as a cast for the parameter's elements; undefined for any other error.
 */
export function anyLeftType(err: unknown): { type: string; typmods?: number[] } | undefined {
  const message = (err as { message?: unknown } | null)?.message;
  if (typeof message !== 'string') return undefined;
  const m = /^Binder Error: Cannot compare values of type (.+?) and VARCHAR in IN\/ANY\/ALL clause/.exec(message);
  if (!m) return undefined;
  const dec = /^DECIMAL\((\d+),(\d+)\)$/.exec(m[1]!);
  if (dec) return { type: 'numeric', typmods: [Number(dec[1]), Number(dec[2])] };
  const name = PG_NAME[m[1]!];
  return name && name !== 'text' ? { type: name } : undefined;
}
