/**
 * The types a statement itself gives its parameters (`$1::integer`). DuckDB leaves some
 * such parameters untyped at prepare — a cast parameter compared with a column of a
 * wider type (`bigint_col != $1::integer`) — where PostgreSQL types the parameter by its
 * cast. lakegate then takes the cast's type for ParameterDescription and for decoding
 * the value; DuckDB binds the statement again with the value's type at Bind.
 */
import { BIGINT, BOOLEAN, DATE, DOUBLE, FLOAT, INTEGER, INTERVAL, SMALLINT, TIME, TIMESTAMP, TIMESTAMPTZ, UUID, VARCHAR, type DuckDBType } from '@duckdb/node-api';
import { walk, type PgNode } from '../../sql/walk.js';

/** PostgreSQL type names (as the parser spells them) whose DuckDB type is fixed by the name alone. */
const BY_NAME: Record<string, DuckDBType> = {
  int2: SMALLINT, int4: INTEGER, int8: BIGINT, float4: FLOAT, float8: DOUBLE, bool: BOOLEAN,
  text: VARCHAR, varchar: VARCHAR, bpchar: VARCHAR, name: VARCHAR,
  date: DATE, time: TIME, timestamp: TIMESTAMP, timestamptz: TIMESTAMPTZ, interval: INTERVAL, uuid: UUID,
};

/** Parameter number → the DuckDB type of its first plain cast (no array, no type modifier) in the statement. */
export function declaredParamTypes(node: PgNode): Map<number, DuckDBType> {
  const out = new Map<number, DuckDBType>();
  walk(node, (v) => {
    if (v.kind !== 'TypeCast') return;
    const arg = v.fields['arg'] as PgNode | undefined;
    const number = arg?.['ParamRef']?.['number'];
    if (typeof number !== 'number' || out.has(number)) return;
    const tn = v.fields['typeName'] as { names?: PgNode[]; typmods?: unknown[]; arrayBounds?: unknown[] } | undefined;
    if (tn?.typmods?.length || tn?.arrayBounds?.length) return;
    const names = (tn?.names ?? []).map((n) => n?.['String']?.['sval'] as string | undefined);
    if (names.length > 2 || (names.length === 2 && names[0] !== 'pg_catalog')) return;
    const t = BY_NAME[names[names.length - 1] ?? ''];
    if (t) out.set(number, t);
  });
  return out;
}
