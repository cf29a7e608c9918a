/**
 * RowDescription fields for DuckDB result columns, through the one agreed
 * type map (sql/pgTypes.ts), and which columns can be sent in binary.
 */
import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import { PRESENTED_TYPES, pgTypeForDuckDB, presentedOidOf, presentedTypmodOf, type PgTypeInfo, type PresentedAs } from '../../sql/pgTypes.js';
import type { PgField } from './api.js';

/**
 * The DuckDB type name sql/pgTypes.ts understands. DuckDB's JSON is a VARCHAR
 * with alias 'JSON', and toString() prints 'VARCHAR', so aliases are honoured
 * here, inside lists too.
 */
export function duckTypeName(type: DuckDBType): string {
  if (type.alias && type.alias.toUpperCase() === 'JSON') return 'JSON';
  if (type.typeId === DuckDBTypeId.LIST) return `${duckTypeName(type.valueType)}[]`;
  if (type.typeId === DuckDBTypeId.ARRAY) return `${duckTypeName(type.valueType)}[${type.length}]`;
  return type.toString();
}

/**
 * The PostgreSQL type a column is presented as: `presented` (what the planner
 * says the column holds, sql/resultTypes.ts) when DuckDB's type is the one
 * that carries it (name over VARCHAR, oid over BIGINT), else DuckDB's own.
 */
export function presentedOid(type: DuckDBType, presented: PresentedAs | undefined): number | undefined {
  if (presented === undefined) return undefined;
  const oid = presentedOidOf(presented);
  const p = PRESENTED_TYPES[oid];
  // an alias type is DuckDB's own (a user's CREATE TYPE), except JSON, which carries jsonb
  const carrier = duckTypeName(type);
  return p && (!type.alias || carrier === 'JSON') && p.carriers.includes(carrier) ? oid : undefined;
}

export function pgTypeOf(type: DuckDBType, presented?: PresentedAs): PgTypeInfo {
  const oid = presentedOid(type, presented);
  if (oid !== undefined) return { oid, len: PRESENTED_TYPES[oid]!.len, typmod: presentedTypmodOf(presented), formatted: '', typname: '' };
  return pgTypeForDuckDB(duckTypeName(type));
}

export function pgFieldFor(name: string, type: DuckDBType, format: 0 | 1, presented?: PresentedAs): PgField {
  const t = pgTypeOf(type, presented);
  return { name, typeOid: t.oid, typeLen: t.len, typeMod: t.typmod, format, tableOid: 0, columnAttr: 0 };
}

/**
 * Whether createRowEncoder can write this column in PostgreSQL's binary format
 * for the OID pgFieldFor reports. Every DuckDB type can: types without a
 * PostgreSQL counterpart go out as text or json, whose binary form is the
 * text itself; some presented types cannot (sql/pgTypes.ts PRESENTED_TYPES).
 */
export function binaryFormatSupported(type: DuckDBType, presented?: PresentedAs): boolean {
  const oid = presentedOid(type, presented);
  if (oid !== undefined && !PRESENTED_TYPES[oid]!.binary) return false;
  switch (type.typeId) {
    case DuckDBTypeId.ANY:
      return false;
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return binaryFormatSupported(type.valueType);
    default:
      return true;
  }
}
