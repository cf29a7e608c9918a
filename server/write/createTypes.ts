/**
 * The column type a table created from a query's result is made with: what
 * DuckDB's iceberg extension accepts for the engine type of each result
 * column (it refuses TINYINT, SMALLINT, the unsigned integers, INTERVAL, JSON,
 * TIME WITH TIME ZONE, ENUM …; reference: iceberg-writes.md §2). A type no
 * Iceberg column can hold is refused before any file is written.
 */
import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import { PgError, SqlState } from '../../protocol/errors.js';
import { PRESENTED_TYPES, presentedOidOf, type PresentedAs } from '../../sql/pgTypes.js';

const cannotHold = (column: string, type: string) =>
  new PgError(SqlState.featureNotSupported, `column "${column}" has type ${type}, which an Iceberg table cannot hold`, {
    hint: 'Cast the column to a type Iceberg has (text, numeric, bigint, timestamp …).',
  });

/** The PostgreSQL name of a column the planner typed where the engine's type does not say (jsonb over VARCHAR …). */
export const presentedName = (p: PresentedAs | undefined): string | undefined => (p === undefined ? undefined : PRESENTED_TYPES[presentedOidOf(p)]?.name);

/** The DuckDB type to CREATE the Iceberg column with. */
export function createType(t: DuckDBType, column: string, pgName?: string): string {
  switch (t.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return 'BOOLEAN';
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
      return 'INTEGER';
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UINTEGER:
      return 'BIGINT';
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return 'DECIMAL(38,0)';
    case DuckDBTypeId.FLOAT:
      return 'FLOAT';
    case DuckDBTypeId.DOUBLE:
      return 'DOUBLE';
    case DuckDBTypeId.DECIMAL:
      return `DECIMAL(${t.width},${t.scale})`;
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.ENUM:
      return 'VARCHAR';
    case DuckDBTypeId.BLOB:
      return 'BLOB';
    case DuckDBTypeId.DATE:
      return 'DATE';
    case DuckDBTypeId.TIME:
      return 'TIME';
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
      return 'TIMESTAMP';
    case DuckDBTypeId.TIMESTAMP_TZ:
      return 'TIMESTAMP WITH TIME ZONE';
    case DuckDBTypeId.UUID:
      return 'UUID';
    case DuckDBTypeId.LIST:
      return `${createType(t.valueType, column)}[]`;
    case DuckDBTypeId.STRUCT:
      return `STRUCT(${t.entryNames.map((n, i) => `"${n.replace(/"/g, '""')}" ${createType(t.entryTypes[i]!, column)}`).join(', ')})`;
    case DuckDBTypeId.MAP:
      return `MAP(${createType(t.keyType, column)}, ${createType(t.valueType, column)})`;
    case DuckDBTypeId.INTERVAL:
      throw cannotHold(column, pgName ?? 'interval');
    case DuckDBTypeId.TIME_TZ:
      throw cannotHold(column, pgName ?? 'time with time zone');
    default:
      throw cannotHold(column, pgName ?? t.toString().toLowerCase());
  }
}
