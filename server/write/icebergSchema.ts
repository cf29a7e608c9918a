/**
 * An Iceberg schema (the REST catalog's JSON) for columns whose types the
 * engine reported: the schema of a view lakegate creates, so the view reads
 * back with typed columns.
 */
import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import type { JsonObject } from '../../catalog/iceberg/api.js';
import { PgError, SqlState } from '../../protocol/errors.js';

type IcebergJsonType = string | JsonObject;

/** Field ids handed out in order while a schema is built (nested types take ids too). */
class Ids {
  private next = 1;
  take(): number {
    return this.next++;
  }
  get last(): number {
    return this.next - 1;
  }
}

function icebergType(t: DuckDBType, ids: Ids, column: string): IcebergJsonType {
  switch (t.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return 'boolean';
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
      return 'int';
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UINTEGER:
      return 'long';
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return 'decimal(38, 0)';
    case DuckDBTypeId.FLOAT:
      return 'float';
    case DuckDBTypeId.DOUBLE:
      return 'double';
    case DuckDBTypeId.DECIMAL:
      return `decimal(${t.width}, ${t.scale})`;
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.ENUM:
      return 'string';
    case DuckDBTypeId.BLOB:
      return 'binary';
    case DuckDBTypeId.DATE:
      return 'date';
    case DuckDBTypeId.TIME:
      return 'time';
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
      return 'timestamp';
    case DuckDBTypeId.TIMESTAMP_NS:
      return 'timestamp_ns';
    case DuckDBTypeId.TIMESTAMP_TZ:
      return 'timestamptz';
    case DuckDBTypeId.UUID:
      return 'uuid';
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY: {
      const elementId = ids.take();
      return { type: 'list', 'element-id': elementId, element: icebergType(t.valueType, ids, column), 'element-required': false };
    }
    case DuckDBTypeId.MAP: {
      const keyId = ids.take();
      const valueId = ids.take();
      return { type: 'map', 'key-id': keyId, key: icebergType(t.keyType, ids, column), 'value-id': valueId, value: icebergType(t.valueType, ids, column), 'value-required': false };
    }
    case DuckDBTypeId.STRUCT: {
      const fieldIds = t.entryNames.map(() => ids.take());
      return {
        type: 'struct',
        fields: t.entryNames.map((name, i) => ({ id: fieldIds[i], name, required: false, type: icebergType(t.entryTypes[i]!, ids, column) })),
      };
    }
    default:
      throw new PgError(SqlState.featureNotSupported, `column "${column}" has type ${t.toString()}, which an Iceberg table or view cannot hold`);
  }
}

/** The schema (schema-id 0) of columns with these names and engine types. */
export function icebergSchema(columns: readonly { name: string; type: DuckDBType }[]): JsonObject {
  const ids = new Ids();
  const topIds = columns.map(() => ids.take());
  const fields = columns.map((c, i) => ({ id: topIds[i], name: c.name, required: false, type: icebergType(c.type, ids, c.name) }));
  return { type: 'struct', 'schema-id': 0, fields };
}
