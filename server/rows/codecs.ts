/** Picks the codec for a DuckDB column type: the single dispatch on type ids. */
import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import { numericBinary } from '../../protocol/types/numeric.js';
import { zoneOffsets } from '../../protocol/types/timezone.js';
import type { FormatContext } from './api.js';
import type { Codec } from './codec.js';
import { pgTypeOf, presentedOid } from './describe.js';
import { PRESENTED_ELEMENT, presentedTypmodOf, regprocOid, regtypeOid, type PresentedAs } from '../../sql/pgTypes.js';
import { GenericCodec, ListCodec, MapCodec, NullCodec, StructCodec, UnionCodec, VectorCodec } from './nestedCodecs.js';
import { BigIntCodec, BoolCodec, DecimalCodec, FloatCodec, OidCodec, SmallIntCodec, WideNumericCodec } from './numberCodecs.js';
import { BitCodec, BlobCodec, BpcharCodec, EnumCodec, JsonbCodec, NamedOidCodec, UuidCodec, VarcharCodec } from './stringCodecs.js';
import { DateCodec, IntervalCodec, TimeCodec, TimestampCodec, TimeTzCodec } from './temporalCodecs.js';

const JSON_OID = 114;
const INT2VECTOR = 22;
const REGPROC = 24;
const REGTYPE = 2206;
const OIDVECTOR = 30;
const JSONB = 3802;
const BPCHAR = 1042;

/** Bytes of the wire integer type (int2/int4/int8) that a DuckDB integer column maps to. */
function wireIntBytes(oid: number): 2 | 4 | 8 {
  return oid === 21 ? 2 : oid === 23 ? 4 : 8;
}

/** `presented`: the PostgreSQL type the planner says the column holds (server/rows/describe.ts presentedOid). */
export function codecFor(type: DuckDBType, ctx: FormatContext, presented?: PresentedAs): Codec {
  const shown = presentedOid(type, presented);
  if (shown !== undefined) return presentedCodec(type, ctx, shown, presentedTypmodOf(presented));
  const pg = pgTypeOf(type);
  const oid = pg.oid;
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN: return new BoolCodec(oid);
    case DuckDBTypeId.TINYINT: return new SmallIntCodec(oid, Int8Array, wireIntBytes(oid));
    case DuckDBTypeId.SMALLINT: return new SmallIntCodec(oid, Int16Array, wireIntBytes(oid));
    case DuckDBTypeId.INTEGER: return new SmallIntCodec(oid, Int32Array, wireIntBytes(oid));
    case DuckDBTypeId.UTINYINT: return new SmallIntCodec(oid, Uint8Array, wireIntBytes(oid));
    case DuckDBTypeId.USMALLINT: return new SmallIntCodec(oid, Uint16Array, wireIntBytes(oid));
    case DuckDBTypeId.UINTEGER: return new SmallIntCodec(oid, Uint32Array, wireIntBytes(oid));
    case DuckDBTypeId.BIGINT: return new BigIntCodec(oid);
    case DuckDBTypeId.UBIGINT: return new WideNumericCodec(oid, 'u64', 0);
    case DuckDBTypeId.HUGEINT: return new WideNumericCodec(oid, 'i128', 0);
    case DuckDBTypeId.UHUGEINT: return new WideNumericCodec(oid, 'u128', 0);
    case DuckDBTypeId.DECIMAL:
      if (type.width <= 4) return new DecimalCodec(oid, 2, type.scale);
      if (type.width <= 9) return new DecimalCodec(oid, 4, type.scale);
      if (type.width <= 18) return new DecimalCodec(oid, 8, type.scale);
      return new WideNumericCodec(oid, 'i128', type.scale);
    case DuckDBTypeId.FLOAT: return new FloatCodec(oid, true);
    case DuckDBTypeId.DOUBLE: return new FloatCodec(oid, false);
    case DuckDBTypeId.VARCHAR: return new VarcharCodec(oid, oid === JSON_OID);
    case DuckDBTypeId.BLOB: return new BlobCodec(oid);
    case DuckDBTypeId.BIT: return new BitCodec(oid);
    case DuckDBTypeId.UUID: return new UuidCodec(oid);
    case DuckDBTypeId.ENUM: {
      const width = type.internalTypeId === DuckDBTypeId.UTINYINT ? 1 : type.internalTypeId === DuckDBTypeId.USMALLINT ? 2 : 4;
      return new EnumCodec(oid, type.values, width);
    }
    case DuckDBTypeId.DATE: return new DateCodec(oid);
    case DuckDBTypeId.TIME: return new TimeCodec(oid, false);
    case DuckDBTypeId.TIME_NS: return new TimeCodec(oid, true);
    case DuckDBTypeId.TIME_TZ: return new TimeTzCodec(oid);
    case DuckDBTypeId.TIMESTAMP: return new TimestampCodec(oid, 'us', null);
    case DuckDBTypeId.TIMESTAMP_S: return new TimestampCodec(oid, 's', null);
    case DuckDBTypeId.TIMESTAMP_MS: return new TimestampCodec(oid, 'ms', null);
    case DuckDBTypeId.TIMESTAMP_NS: return new TimestampCodec(oid, 'ns', null);
    case DuckDBTypeId.TIMESTAMP_TZ: return new TimestampCodec(oid, 'us', zoneOffsets(ctx.timeZone));
    case DuckDBTypeId.INTERVAL: return new IntervalCodec(oid);
    case DuckDBTypeId.LIST: return new ListCodec(oid, codecFor(type.valueType, ctx), null, oid === JSON_OID);
    case DuckDBTypeId.ARRAY: return new ListCodec(oid, codecFor(type.valueType, ctx), type.length, oid === JSON_OID);
    case DuckDBTypeId.STRUCT: return new StructCodec(oid, type.entryNames, type.entryTypes.map((t) => codecFor(t, ctx)));
    case DuckDBTypeId.MAP: return new MapCodec(oid, codecFor(type.keyType, ctx), codecFor(type.valueType, ctx));
    case DuckDBTypeId.UNION: return new UnionCodec(oid, type.memberTypes.map((t) => codecFor(t, ctx)));
    case DuckDBTypeId.SQLNULL: return new NullCodec(oid);
    case DuckDBTypeId.BIGNUM: return new GenericCodec(oid, type, (v) => numericBinary(v as bigint, 0));
    default: return new GenericCodec(oid, type, null);
  }
}

/**
 * name, "char", varchar and pg_node_tree send their text; char(n) its text padded to n; jsonb its jsonb_out text;
 * oid and xid 4 bytes; regtype and regproc their OID; bit(n) and varbit as bit; arrays of them with their element OID.
 */
function presentedCodec(type: DuckDBType, ctx: FormatContext, oid: number, typmod: number): Codec {
  if (type.typeId === DuckDBTypeId.LIST && (oid === INT2VECTOR || oid === OIDVECTOR)) return new VectorCodec(oid, codecFor(type.valueType, ctx));
  if (type.typeId === DuckDBTypeId.LIST) return new ListCodec(oid, codecFor(type.valueType, ctx, PRESENTED_ELEMENT[oid]), null, false);
  if (type.typeId === DuckDBTypeId.BIGINT) return new OidCodec(oid);
  if (oid === REGTYPE) return new NamedOidCodec(oid, 'regtype', regtypeOid);
  if (oid === REGPROC) return new NamedOidCodec(oid, 'regproc', regprocOid);
  if (oid === JSONB) return new JsonbCodec(oid);
  if (type.typeId === DuckDBTypeId.BIT) return new BitCodec(oid);
  if (oid === BPCHAR && typmod > 4) return new BpcharCodec(oid, typmod - 4);
  return new VarcharCodec(oid, false);
}
