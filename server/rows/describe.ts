/**
 * RowDescription fields for DuckDB result columns, through the one agreed
 * type map (sql/pgTypes.ts), and which columns can be sent in binary.
 */
import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import { pgTypeForDuckDB, type PgTypeInfo } from '../../sql/pgTypes.js';
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

export function pgTypeOf(type: DuckDBType): PgTypeInfo {
  return pgTypeForDuckDB(duckTypeName(type));
}

export function pgFieldFor(name: string, type: DuckDBType, format: 0 | 1): PgField {
  const t = pgTypeOf(type);
  return { name, typeOid: t.oid, typeLen: t.len, typeMod: t.typmod, format, tableOid: 0, columnAttr: 0 };
}

/**
 * Whether createRowEncoder can write this column in PostgreSQL's binary format
 * for the OID pgFieldFor reports. Today every result type can: types without
 * a PostgreSQL counterpart go out as text or json, whose binary form is the
 * text itself. Kept as the one place to say otherwise when a type cannot.
 */
export function binaryFormatSupported(type: DuckDBType): boolean {
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
