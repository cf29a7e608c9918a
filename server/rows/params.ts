/**
 * Bind parameters → DuckDB values. The PostgreSQL type comes from the
 * parameter OID, or, for OID 0 ("unspecified": node-postgres, pgJDBC's
 * setDate), from the type DuckDB inferred for the parameter; text is decoded
 * with PostgreSQL's input rules and error texts (protocol/types/input.ts),
 * binary with PostgreSQL's send formats. The caller binds the result with
 * `prepared.bindValue(index + 1, value, type)` (a null value binds NULL of
 * that type).
 */
import {
  BIGINT, BLOB, BOOLEAN, DATE, DECIMAL, DOUBLE, FLOAT, INTEGER, INTERVAL, LIST, SMALLINT, TIME, TIMESTAMP, TIMESTAMPTZ, UUID, VARCHAR,
  DuckDBDecimalValue, blobValue, dateValue, decimalValue, intervalValue, listValue, timestampTZValue, timestampValue, timeValue, uuidValue,
  type DuckDBType,
} from '@duckdb/node-api';
import { PgError, SqlState } from '../../protocol/errors.js';
import { parseArrayBinary, parseArrayText } from '../../protocol/types/array.js';
import { parseByteaText } from '../../protocol/types/bytea.js';
import { PG_EPOCH_DAYS, PG_EPOCH_MICROS_BIG } from '../../protocol/types/datetime.js';
import {
  invalidSyntax, parseBoolText, parseDateText, parseIntervalText, parseFloatText, parseIntText, parseTimestampText, parseTimestampTzText, parseTimeText,
  type Infinite,
} from '../../protocol/types/input.js';
import { parseNumericBinary, parseNumericText, type NumericValue } from '../../protocol/types/numeric.js';
import { decodeUtf8 } from '../../protocol/types/utf8.js';
import { parseUuidText } from '../../protocol/types/uuid.js';
import type { DecodedParam, FormatContext } from './api.js';
import { pgTypeOf } from './describe.js';

type Kind = 'int2' | 'int4' | 'int8' | 'float4' | 'float8' | 'numeric' | 'bool' | 'text' | 'json' | 'jsonb' | 'bytea' | 'date' | 'time' | 'timestamp' | 'timestamptz' | 'uuid' | 'interval';

const KIND_BY_OID: Record<number, Kind> = {
  16: 'bool', 17: 'bytea', 19: 'text', 20: 'int8', 21: 'int2', 23: 'int4', 25: 'text', 26: 'int8', 114: 'json', 700: 'float4', 701: 'float8',
  705: 'text', 1042: 'text', 1043: 'text', 1082: 'date', 1083: 'time', 1114: 'timestamp', 1184: 'timestamptz', 1186: 'interval',
  1700: 'numeric', 2950: 'uuid', 3802: 'jsonb',
};

/** One-dimensional array types clients bind (pgJDBC createArrayOf, node-postgres arrays with a typed context). */
const ARRAY_ELEMENT_OID: Record<number, number> = {
  199: 114, 1000: 16, 1001: 17, 1005: 21, 1007: 23, 1009: 25, 1014: 1042, 1015: 1043, 1016: 20, 1021: 700, 1022: 701, 1028: 26,
  1115: 1114, 1182: 1082, 1183: 1083, 1185: 1184, 1187: 1186, 1231: 1700, 2951: 2950,
};

const DUCK_DATE_INFINITY = 2147483647;
const DUCK_TS_INFINITY = 9223372036854775807n;
/** PostgreSQL's IS_VALID_DATE / IS_VALID_TIMESTAMP bounds, relative to 2000-01-01 (datatype/timestamp.h). */
const PG_MIN_DATE = -2451545;
const PG_END_DATE = 2145031949;
const PG_MIN_TIMESTAMP = -211813488000000000n;
const PG_END_TIMESTAMP = 9223371331200000000n;
const MICROS_PER_DAY_BIG = 86_400_000_000n;

export function decodeParam(
  index: number,
  oid: number,
  format: 0 | 1,
  raw: Buffer | null,
  target: DuckDBType | null,
  ctx: FormatContext = { timeZone: 'UTC' },
): DecodedParam {
  const arrayOid = oid !== 0 ? oid : target ? pgTypeOf(target).oid : 0;
  const elementOid = ARRAY_ELEMENT_OID[arrayOid];
  if (elementOid !== undefined) {
    const elementKind = KIND_BY_OID[elementOid]!;
    if (raw === null) return { value: null, type: LIST(duckTypeFor(elementKind, null)) };
    return decodeArray(index, elementKind, format, raw, ctx);
  }
  const kind = kindFor(index, oid, format, target);
  const type = duckTypeFor(kind, target);
  if (raw === null) return { value: null, type };
  return format === 1 ? decodeBinary(index, kind, raw) : decodeText(kind, decodeUtf8(raw), ctx);
}

/** A one-dimensional array → a DuckDB LIST of the element type, every element read by its own rules. */
function decodeArray(index: number, kind: Kind, format: 0 | 1, raw: Buffer, ctx: FormatContext): DecodedParam {
  let items: (string | Buffer | null)[] | null;
  const text = format === 1 ? '' : decodeUtf8(raw);
  try {
    items = format === 1 ? (parseArrayBinary(raw)?.items ?? null) : parseArrayText(text);
  } catch {
    throw new PgError(SqlState.featureNotSupported, `multidimensional array parameters are not supported (parameter $${index + 1})`);
  }
  if (!items) {
    if (format === 1) throw new PgError(SqlState.invalidBinaryRepresentation, `incorrect binary data format in bind parameter ${index + 1}`);
    throw new PgError(SqlState.invalidTextRepresentation, `malformed array literal: "${text}"`);
  }
  const decoded = items.map((it) =>
    it === null ? null : typeof it === 'string' ? decodeText(kind, it, ctx) : decodeBinary(index, kind, it),
  );
  if (kind !== 'numeric') {
    return { value: listValue(decoded.map((d) => (d ? d.value : null))), type: LIST(duckTypeFor(kind, null)) };
  }
  // numeric elements each carry their own scale: bring them to a common DECIMAL(38, s), or DOUBLE.
  const decimals = decoded.map((d) => (d && d.value instanceof DuckDBDecimalValue ? d.value : null));
  const scale = Math.max(0, ...decimals.map((d) => d?.scale ?? 0));
  const fits = decoded.every((d, k) => d === null || (decimals[k] && decimals[k]!.value.toString().replace('-', '').length + scale - decimals[k]!.scale <= 38));
  if (fits) {
    const values = decimals.map((d) => (d ? decimalValue(d.value * 10n ** BigInt(scale - d.scale), 38, scale) : null));
    return { value: listValue(values), type: LIST(DECIMAL(38, scale)) };
  }
  const doubles = decoded.map((d) => (d === null ? null : d.value instanceof DuckDBDecimalValue ? d.value.toDouble() : (d.value as number)));
  return { value: listValue(doubles), type: LIST(DOUBLE) };
}

function kindFor(index: number, oid: number, format: 0 | 1, target: DuckDBType | null): Kind {
  if (oid !== 0) {
    const k = KIND_BY_OID[oid];
    if (k) return k;
    if (format === 0) return 'text'; // DuckDB casts the string to whatever the statement needs.
    throw new PgError(SqlState.featureNotSupported, `binary format is not supported for parameter $${index + 1} of type OID ${oid}`);
  }
  if (target) return KIND_BY_OID[pgTypeOf(target).oid] ?? 'text';
  if (format === 0) return 'text';
  throw new PgError(SqlState.indeterminateDatatype, `could not determine data type of parameter $${index + 1}`);
}

function duckTypeFor(kind: Kind, target: DuckDBType | null): DuckDBType {
  switch (kind) {
    case 'int2': return SMALLINT;
    case 'int4': return INTEGER;
    case 'int8': return BIGINT;
    case 'float4': return FLOAT;
    case 'float8': return DOUBLE;
    case 'numeric': return target && target.typeId === DECIMAL().typeId ? target : DECIMAL(38, 10);
    case 'bool': return BOOLEAN;
    case 'bytea': return BLOB;
    case 'date': return DATE;
    case 'time': return TIME;
    case 'timestamp': return TIMESTAMP;
    case 'timestamptz': return TIMESTAMPTZ;
    case 'uuid': return UUID;
    case 'interval': return INTERVAL;
    default: return VARCHAR;
  }
}

const num = (v: bigint): number => Number(v);

function numericValue(v: NumericValue): DecodedParam {
  if (v.kind === 'nan') return { value: NaN, type: DOUBLE };
  if (v.kind === 'infinity') return { value: v.negative ? -Infinity : Infinity, type: DOUBLE };
  const digits = (v.unscaled < 0n ? -v.unscaled : v.unscaled).toString().length;
  // DECIMAL(38, s) holds it exactly when it has at most 38 digits; beyond that only a double can.
  if (v.scale <= 38 && Math.max(digits, v.scale + 1) <= 38) {
    return { value: decimalValue(v.unscaled, 38, v.scale), type: DECIMAL(38, v.scale) };
  }
  return { value: Number(v.unscaled) / 10 ** v.scale, type: DOUBLE };
}

const dateOf = (d: number | Infinite) =>
  dateValue(d === 'infinity' ? DUCK_DATE_INFINITY : d === '-infinity' ? -DUCK_DATE_INFINITY : d);
const microsOf = (t: bigint | Infinite): bigint => (t === 'infinity' ? DUCK_TS_INFINITY : t === '-infinity' ? -DUCK_TS_INFINITY : t);

function decodeText(kind: Kind, s: string, ctx: FormatContext): DecodedParam {
  switch (kind) {
    case 'int2': return { value: num(parseIntText(s, 'smallint')), type: SMALLINT };
    case 'int4': return { value: num(parseIntText(s, 'integer')), type: INTEGER };
    case 'int8': return { value: parseIntText(s, 'bigint'), type: BIGINT };
    case 'float4': return { value: parseFloatText(s, true), type: FLOAT };
    case 'float8': return { value: parseFloatText(s, false), type: DOUBLE };
    case 'numeric': {
      const v = parseNumericText(s);
      if (!v) throw invalidSyntax('numeric', s);
      return numericValue(v);
    }
    case 'bool': return { value: parseBoolText(s), type: BOOLEAN };
    case 'bytea': return { value: blobValue(parseByteaText(s)), type: BLOB };
    case 'uuid': {
      const u = parseUuidText(s);
      if (!u) throw invalidSyntax('uuid', s);
      return { value: uuidValue(BigInt(`0x${u.toString('hex')}`)), type: UUID };
    }
    case 'date': return { value: dateOf(parseDateText(s)), type: DATE };
    case 'time': return { value: timeValue(parseTimeText(s)), type: TIME };
    case 'interval': {
      const iv = parseIntervalText(s);
      return { value: intervalValue(iv.months, iv.days, iv.micros), type: INTERVAL };
    }
    case 'timestamp': return { value: timestampValue(microsOf(parseTimestampText(s))), type: TIMESTAMP };
    case 'timestamptz': return { value: timestampTZValue(microsOf(parseTimestampTzText(s, ctx.timeZone))), type: TIMESTAMPTZ };
    case 'json':
    case 'jsonb':
      try {
        JSON.parse(s);
      } catch {
        // json_in names no value in its message (the detail has the token); jsonb says json too.
        throw new PgError(SqlState.invalidTextRepresentation, 'invalid input syntax for type json');
      }
      return { value: s, type: VARCHAR };
    default:
      // text and anything else: DuckDB casts the string to the parameter's type.
      return { value: s, type: VARCHAR };
  }
}

function decodeBinary(index: number, kind: Kind, b: Buffer): DecodedParam {
  const bad = (): PgError => new PgError(SqlState.invalidBinaryRepresentation, `incorrect binary data format in bind parameter ${index + 1}`);
  // PostgreSQL's receive functions read past a short value ("insufficient data left in message", a
  // protocol violation reported as an ERROR) and refuse leftover bytes of a long one (22P03).
  const need = (n: number): void => {
    if (b.length < n) throw new PgError(SqlState.protocolViolation, 'insufficient data left in message');
    if (b.length > n) throw bad();
  };
  switch (kind) {
    case 'int2': need(2); return { value: b.readInt16BE(0), type: SMALLINT };
    case 'int4': need(4); return { value: b.readInt32BE(0), type: INTEGER };
    case 'int8': need(8); return { value: b.readBigInt64BE(0), type: BIGINT };
    case 'float4': need(4); return { value: b.readFloatBE(0), type: FLOAT };
    case 'float8': need(8); return { value: b.readDoubleBE(0), type: DOUBLE };
    case 'bool': need(1); return { value: b[0] !== 0, type: BOOLEAN };
    case 'numeric': {
      const v = parseNumericBinary(b);
      if (!v) throw bad();
      return numericValue(v);
    }
    case 'bytea': return { value: blobValue(Buffer.from(b)), type: BLOB };
    case 'uuid': need(16); return { value: uuidValue(BigInt(`0x${b.toString('hex')}`)), type: UUID };
    case 'date': {
      need(4);
      const d = b.readInt32BE(0);
      const finite = d !== 2147483647 && d !== -2147483648;
      // date_recv accepts what date_in does: 4714-11-24 BC to 5874897-12-31.
      if (finite && (d < PG_MIN_DATE || d >= PG_END_DATE)) throw new PgError(SqlState.datetimeFieldOverflow, 'date out of range');
      return { value: dateOf(d === 2147483647 ? 'infinity' : d === -2147483648 ? '-infinity' : d + PG_EPOCH_DAYS), type: DATE };
    }
    case 'time': {
      need(8);
      const t = b.readBigInt64BE(0);
      if (t < 0n || t > MICROS_PER_DAY_BIG) throw new PgError(SqlState.datetimeFieldOverflow, 'time out of range');
      return { value: timeValue(t), type: TIME };
    }
    case 'timestamp':
    case 'timestamptz': {
      need(8);
      const v = b.readBigInt64BE(0);
      const finite = v !== 0x7fffffffffffffffn && v !== -0x8000000000000000n;
      // PostgreSQL's range (4714-11-24 BC to 294276 AD), within what DuckDB can hold (to 294247 AD).
      if (finite && (v < PG_MIN_TIMESTAMP || v >= PG_END_TIMESTAMP || v + PG_EPOCH_MICROS_BIG >= DUCK_TS_INFINITY)) {
        throw new PgError(SqlState.datetimeFieldOverflow, 'timestamp out of range');
      }
      const t: bigint | Infinite = v === 0x7fffffffffffffffn ? 'infinity' : v === -0x8000000000000000n ? '-infinity' : v + PG_EPOCH_MICROS_BIG;
      return kind === 'timestamp' ? { value: timestampValue(microsOf(t)), type: TIMESTAMP } : { value: timestampTZValue(microsOf(t)), type: TIMESTAMPTZ };
    }
    case 'interval':
      need(16);
      return { value: intervalValue(b.readInt32BE(12), b.readInt32BE(8), b.readBigInt64BE(0)), type: INTERVAL };
    case 'jsonb': {
      // jsonb_send: a version byte (1), then the text.
      if (b.length < 1 || b[0] !== 1) throw bad();
      return { value: decodeUtf8(b.subarray(1)), type: VARCHAR };
    }
    default:
      // text, varchar, json: the UTF-8 bytes themselves.
      return { value: decodeUtf8(b), type: VARCHAR };
  }
}

/** The DuckDB type a parameter the client declared (by OID) is decoded to; undefined for an OID decoded as text only. */
export function duckTypeForOid(oid: number): DuckDBType | undefined {
  const element = ARRAY_ELEMENT_OID[oid];
  if (element !== undefined) return LIST(duckTypeFor(KIND_BY_OID[element]!, null));
  const kind = KIND_BY_OID[oid];
  return kind ? duckTypeFor(kind, null) : undefined;
}
