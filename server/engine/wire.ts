/**
 * What crosses the pipe between the gateway and an engine process, as plain
 * data: the IPC channel's structured clone keeps bigint and Uint8Array but
 * not classes, so DuckDB types, bound values and errors are taken apart here
 * and put together again on the other side.
 */
import {
  DuckDBAnyType, DuckDBArrayType, DuckDBBigIntType, DuckDBBigNumType, DuckDBBitType, DuckDBBlobType, DuckDBBlobValue, DuckDBBooleanType,
  DuckDBDateType, DuckDBDateValue, DuckDBDecimalType, DuckDBDecimalValue, DuckDBDoubleType, DuckDBEnumType, DuckDBFloatType,
  DuckDBHugeIntType, DuckDBIntegerType, DuckDBIntervalType, DuckDBIntervalValue, DuckDBListType, DuckDBListValue, DuckDBMapType,
  DuckDBSQLNullType, DuckDBSmallIntType, DuckDBStructType, DuckDBTimeTZType, DuckDBTimeType, DuckDBTimeValue, DuckDBTimestampMillisecondsType,
  DuckDBTimestampNanosecondsType, DuckDBTimestampSecondsType, DuckDBTimestampTZType, DuckDBTimestampTZValue, DuckDBTimestampType,
  DuckDBTimestampValue, DuckDBTinyIntType, DuckDBTypeId, DuckDBUBigIntType, DuckDBUHugeIntType, DuckDBUIntegerType, DuckDBUSmallIntType,
  DuckDBUTinyIntType, DuckDBUUIDType, DuckDBUUIDValue, DuckDBUnionType, DuckDBVarCharType,
  type DuckDBType, type DuckDBValue,
} from '@duckdb/node-api';
import { PgError, type SqlStateCode } from '../../protocol/errors.js';

/** A DuckDB type as DuckDBType.toJson() prints it. */
export interface WireType {
  typeId: number;
  alias?: string;
  width?: number;
  scale?: number;
  valueType?: WireType;
  keyType?: WireType;
  length?: number;
  entryNames?: string[];
  entryTypes?: WireType[];
  values?: string[];
  internalTypeId?: number;
  memberTags?: string[];
  memberTypes?: WireType[];
}

export const typeToWire = (t: DuckDBType): WireType => t.toJson() as unknown as WireType;

const SIMPLE: Partial<Record<number, { create(alias?: string): DuckDBType }>> = {
  [DuckDBTypeId.BOOLEAN]: DuckDBBooleanType,
  [DuckDBTypeId.TINYINT]: DuckDBTinyIntType,
  [DuckDBTypeId.SMALLINT]: DuckDBSmallIntType,
  [DuckDBTypeId.INTEGER]: DuckDBIntegerType,
  [DuckDBTypeId.BIGINT]: DuckDBBigIntType,
  [DuckDBTypeId.UTINYINT]: DuckDBUTinyIntType,
  [DuckDBTypeId.USMALLINT]: DuckDBUSmallIntType,
  [DuckDBTypeId.UINTEGER]: DuckDBUIntegerType,
  [DuckDBTypeId.UBIGINT]: DuckDBUBigIntType,
  [DuckDBTypeId.FLOAT]: DuckDBFloatType,
  [DuckDBTypeId.DOUBLE]: DuckDBDoubleType,
  [DuckDBTypeId.TIMESTAMP]: DuckDBTimestampType,
  [DuckDBTypeId.DATE]: DuckDBDateType,
  [DuckDBTypeId.TIME]: DuckDBTimeType,
  [DuckDBTypeId.INTERVAL]: DuckDBIntervalType,
  [DuckDBTypeId.HUGEINT]: DuckDBHugeIntType,
  [DuckDBTypeId.UHUGEINT]: DuckDBUHugeIntType,
  [DuckDBTypeId.VARCHAR]: DuckDBVarCharType,
  [DuckDBTypeId.BLOB]: DuckDBBlobType,
  [DuckDBTypeId.TIMESTAMP_S]: DuckDBTimestampSecondsType,
  [DuckDBTypeId.TIMESTAMP_MS]: DuckDBTimestampMillisecondsType,
  [DuckDBTypeId.TIMESTAMP_NS]: DuckDBTimestampNanosecondsType,
  [DuckDBTypeId.UUID]: DuckDBUUIDType,
  [DuckDBTypeId.BIT]: DuckDBBitType,
  [DuckDBTypeId.TIME_TZ]: DuckDBTimeTZType,
  [DuckDBTypeId.TIMESTAMP_TZ]: DuckDBTimestampTZType,
  [DuckDBTypeId.BIGNUM]: DuckDBBigNumType,
  [DuckDBTypeId.SQLNULL]: DuckDBSQLNullType,
};

export function typeFromWire(w: WireType): DuckDBType {
  const alias = w.alias;
  switch (w.typeId) {
    case DuckDBTypeId.DECIMAL:
      return new DuckDBDecimalType(w.width!, w.scale!, alias);
    case DuckDBTypeId.LIST:
      return new DuckDBListType(typeFromWire(w.valueType!), alias);
    case DuckDBTypeId.ARRAY:
      return new DuckDBArrayType(typeFromWire(w.valueType!), w.length!, alias);
    case DuckDBTypeId.MAP:
      return new DuckDBMapType(typeFromWire(w.keyType!), typeFromWire(w.valueType!), alias);
    case DuckDBTypeId.STRUCT:
      return new DuckDBStructType(w.entryNames!, w.entryTypes!.map(typeFromWire), alias);
    case DuckDBTypeId.UNION:
      return new DuckDBUnionType(w.memberTags!, w.memberTypes!.map(typeFromWire), alias);
    case DuckDBTypeId.ENUM:
      return new DuckDBEnumType(w.values!, w.internalTypeId!, alias);
    case DuckDBTypeId.ANY:
      return new DuckDBAnyType(alias);
  }
  const simple = SIMPLE[w.typeId];
  // A type this build does not know: VARCHAR is what the gateway can always print.
  return simple ? simple.create(alias) : DuckDBVarCharType.create(alias);
}

/** A bound value: primitives as they are, DuckDB's value classes tagged. */
export type WireValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | { t: 'blob'; bytes: Uint8Array }
  | { t: 'date'; days: number }
  | { t: 'decimal'; value: bigint; width: number; scale: number }
  | { t: 'interval'; months: number; days: number; micros: bigint }
  | { t: 'list'; items: WireValue[] }
  | { t: 'timestamp'; micros: bigint }
  | { t: 'timestamptz'; micros: bigint }
  | { t: 'time'; micros: bigint }
  | { t: 'uuid'; hugeint: bigint };

/** A Bind parameter as the engine binds it: a null value is a NULL of `type`. */
export interface WireParam {
  value: WireValue;
  type: WireType;
}

export function valueToWire(v: DuckDBValue): WireValue {
  if (v === null || typeof v !== 'object') return v as WireValue;
  if (v instanceof DuckDBBlobValue) return { t: 'blob', bytes: v.bytes };
  if (v instanceof DuckDBDateValue) return { t: 'date', days: v.days };
  if (v instanceof DuckDBDecimalValue) return { t: 'decimal', value: v.value, width: v.width, scale: v.scale };
  if (v instanceof DuckDBIntervalValue) return { t: 'interval', months: v.months, days: v.days, micros: v.micros };
  if (v instanceof DuckDBListValue) return { t: 'list', items: v.items.map(valueToWire) };
  if (v instanceof DuckDBTimestampTZValue) return { t: 'timestamptz', micros: v.micros };
  if (v instanceof DuckDBTimestampValue) return { t: 'timestamp', micros: v.micros };
  if (v instanceof DuckDBTimeValue) return { t: 'time', micros: v.micros };
  if (v instanceof DuckDBUUIDValue) return { t: 'uuid', hugeint: v.hugeint };
  // The gateway's parameter decoding makes none other (server/rows/params.ts).
  throw new Error(`a bound value of class ${(v as object).constructor.name} cannot be sent to the engine`);
}

export function valueFromWire(w: WireValue): DuckDBValue {
  if (w === null || typeof w !== 'object') return w;
  switch (w.t) {
    case 'blob':
      return new DuckDBBlobValue(w.bytes);
    case 'date':
      return new DuckDBDateValue(w.days);
    case 'decimal':
      return new DuckDBDecimalValue(w.value, w.width, w.scale);
    case 'interval':
      return new DuckDBIntervalValue(w.months, w.days, w.micros);
    case 'list':
      return new DuckDBListValue(w.items.map(valueFromWire));
    case 'timestamp':
      return new DuckDBTimestampValue(w.micros);
    case 'timestamptz':
      return new DuckDBTimestampTZValue(w.micros);
    case 'time':
      return new DuckDBTimeValue(w.micros);
    case 'uuid':
      return DuckDBUUIDValue.fromStoredHugeInt(w.hugeint);
  }
}

/** A failure inside the engine process: a PgError keeps its fields; anything else its message (server/errors.ts maps engine text). */
export type WireError =
  | { kind: 'pg'; code: string; message: string; severity: string; detail?: string; hint?: string; position?: number }
  | { kind: 'engine'; name: string; message: string };

export function errorToWire(e: unknown): WireError {
  if (e instanceof PgError) {
    return {
      kind: 'pg', code: e.code, message: e.message, severity: e.severity,
      ...(e.detail !== undefined ? { detail: e.detail } : {}),
      ...(e.hint !== undefined ? { hint: e.hint } : {}),
      ...(e.position !== undefined ? { position: e.position } : {}),
    };
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return { kind: 'engine', name: err.name, message: err.message };
}

export function errorFromWire(w: WireError): Error {
  if (w.kind === 'pg') {
    return new PgError(w.code as SqlStateCode, w.message, {
      severity: w.severity as PgError['severity'],
      ...(w.detail !== undefined ? { detail: w.detail } : {}),
      ...(w.hint !== undefined ? { hint: w.hint } : {}),
      ...(w.position !== undefined ? { position: w.position } : {}),
    });
  }
  const err = new Error(w.message);
  err.name = w.name;
  return err;
}
