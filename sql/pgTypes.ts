import { REGPROC_OIDS } from './catalogColumnTypes.js';
import { ownTable } from './ownNames.js';

/**
 * How a DuckDB type presents itself to PostgreSQL clients: pg_type OID,
 * typlen, typmod and the name format_type() prints. One table for the wire
 * (RowDescription) and the catalog emulation (pg_attribute, pg_type), so the
 * two never disagree. Source: reference/pg-clients.md §6.
 */
export interface PgTypeInfo {
  oid: number;
  /** pg_type.typlen */
  len: number;
  /** atttypmod */
  typmod: number;
  /** what format_type(oid, typmod) prints */
  formatted: string;
  /** pg_type.typname */
  typname: string;
}

interface BaseType {
  oid: number;
  len: number;
  typname: string;
  formatted: string;
  arrayOid: number;
}

const base = (oid: number, len: number, typname: string, formatted: string, arrayOid: number): BaseType => ({
  oid,
  len,
  typname,
  formatted,
  arrayOid,
});

export const PG_BOOL = base(16, 1, 'bool', 'boolean', 1000);
export const PG_BYTEA = base(17, -1, 'bytea', 'bytea', 1001);
export const PG_NAME = base(19, 64, 'name', 'name', 1003);
export const PG_INT8 = base(20, 8, 'int8', 'bigint', 1016);
export const PG_INT2 = base(21, 2, 'int2', 'smallint', 1005);
export const PG_INT4 = base(23, 4, 'int4', 'integer', 1007);
export const PG_TEXT = base(25, -1, 'text', 'text', 1009);
export const PG_OID = base(26, 4, 'oid', 'oid', 1028);
export const PG_JSON = base(114, -1, 'json', 'json', 199);
/** Only as a column's kept type (CatalogColumn.pgType) and in pg_type: values are DuckDB JSON presented by the planner. */
export const PG_JSONB = base(3802, -1, 'jsonb', 'jsonb', 3807);
export const PG_FLOAT4 = base(700, 4, 'float4', 'real', 1021);
export const PG_FLOAT8 = base(701, 8, 'float8', 'double precision', 1022);
export const PG_VARCHAR = base(1043, -1, 'varchar', 'character varying', 1015);
export const PG_DATE = base(1082, 4, 'date', 'date', 1182);
export const PG_TIME = base(1083, 8, 'time', 'time without time zone', 1183);
export const PG_TIMESTAMP = base(1114, 8, 'timestamp', 'timestamp without time zone', 1115);
export const PG_TIMESTAMPTZ = base(1184, 8, 'timestamptz', 'timestamp with time zone', 1185);
export const PG_INTERVAL = base(1186, 16, 'interval', 'interval', 1187);
export const PG_TIMETZ = base(1266, 12, 'timetz', 'time with time zone', 1270);
/**
 * DuckDB's BIT is a bit string of any length: PostgreSQL's bit without a
 * typmod, the type of B'…' and X'…' literals, the bit operators and bit_and /
 * bit_or (a cast to bit(n) or varbit is presented by the planner, sql/resultTypes.ts).
 */
export const PG_BIT = base(1560, -1, 'bit', 'bit', 1561);
export const PG_VARBIT = base(1562, -1, 'varbit', 'bit varying', 1563);
export const PG_NUMERIC = base(1700, -1, 'numeric', 'numeric', 1231);
export const PG_UUID = base(2950, 16, 'uuid', 'uuid', 2951);

export const PG_BASE_TYPES: readonly BaseType[] = [
  PG_BOOL, PG_BYTEA, PG_NAME, PG_INT8, PG_INT2, PG_INT4, PG_TEXT, PG_OID, PG_JSON, PG_JSONB, PG_FLOAT4, PG_FLOAT8,
  PG_VARCHAR, PG_DATE, PG_TIME, PG_TIMESTAMP, PG_TIMESTAMPTZ, PG_INTERVAL, PG_TIMETZ, PG_BIT, PG_VARBIT, PG_NUMERIC, PG_UUID,
];

/** numeric(p,s) typmod as PostgreSQL stores it. */
export const numericTypmod = (precision: number, scale: number): number => ((precision << 16) | scale) + 4;

const SCALARS: Record<string, BaseType> = ownTable({
  BOOLEAN: PG_BOOL,
  TINYINT: PG_INT2,
  SMALLINT: PG_INT2,
  UTINYINT: PG_INT2,
  INTEGER: PG_INT4,
  USMALLINT: PG_INT4,
  BIGINT: PG_INT8,
  UINTEGER: PG_INT8,
  UBIGINT: PG_NUMERIC,
  HUGEINT: PG_NUMERIC,
  UHUGEINT: PG_NUMERIC,
  BIGNUM: PG_NUMERIC,
  VARINT: PG_NUMERIC,
  FLOAT: PG_FLOAT4,
  DOUBLE: PG_FLOAT8,
  VARCHAR: PG_TEXT,
  JSON: PG_JSON,
  BLOB: PG_BYTEA,
  DATE: PG_DATE,
  TIME: PG_TIME,
  TIME_NS: PG_TIME,
  'TIME WITH TIME ZONE': PG_TIMETZ,
  TIMESTAMP: PG_TIMESTAMP,
  TIMESTAMP_S: PG_TIMESTAMP,
  TIMESTAMP_MS: PG_TIMESTAMP,
  TIMESTAMP_NS: PG_TIMESTAMP,
  'TIMESTAMP WITH TIME ZONE': PG_TIMESTAMPTZ,
  INTERVAL: PG_INTERVAL,
  UUID: PG_UUID,
  BIT: PG_BIT,
  '"NULL"': PG_TEXT,
  NULL: PG_TEXT,
});

const info = (t: BaseType, typmod = -1, formatted = t.formatted): PgTypeInfo => ({
  oid: t.oid,
  len: t.len,
  typmod,
  formatted,
  typname: t.typname,
});

/**
 * Map a DuckDB type as DuckDB prints it (DuckDBType.toString(), the data_type
 * column of duckdb_columns()) to its PostgreSQL presentation.
 */
export function pgTypeForDuckDB(duckType: string): PgTypeInfo {
  const t = duckType.trim();
  const scalar = SCALARS[t.toUpperCase()];
  if (scalar) return info(scalar);

  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/i.exec(t);
  if (decimal) {
    const p = Number(decimal[1]);
    const s = Number(decimal[2]);
    return info(PG_NUMERIC, numericTypmod(p, s), `numeric(${p},${s})`);
  }

  // LIST (`INTEGER[]`) and fixed ARRAY (`INTEGER[3]`) both become a PG array.
  const list = /^(.*)\[\d*\]$/s.exec(t);
  if (list) {
    const element = pgTypeForDuckDB(list[1]!);
    const elementBase = PG_BASE_TYPES.find((b) => b.oid === element.oid);
    if (elementBase && !list[1]!.trim().endsWith(']')) {
      return {
        oid: elementBase.arrayOid,
        len: -1,
        typmod: element.typmod,
        formatted: `${element.formatted}[]`,
        typname: `_${elementBase.typname}`,
      };
    }
    return info(PG_JSON);
  }

  // STRUCT, MAP, UNION and nested lists have no PostgreSQL form: rendered as JSON text.
  if (/^(STRUCT|MAP|UNION)\(/i.test(t)) return info(PG_JSON);
  // ENUM('a', 'b') and user enum names: text.
  return info(PG_TEXT);
}

/**
 * PostgreSQL types the planner may say a result column holds (sql/resultTypes.ts)
 * that DuckDB's type does not tell (no DuckDB type maps to name or oid; a
 * VARCHAR is text, but information_schema's character_data is varchar), with
 * the DuckDB type that carries their values:
 * server/rows/describe.ts presents a column so only when DuckDB's type is that one.
 */
export interface PresentedType {
  /** the DuckDB types (as describe's duckTypeName prints them) whose values it can present */
  carriers: readonly string[];
  /** pg_type.typlen */
  len: number;
  name: string;
  /**
   * Whether its binary form can be written from the carried value: not for a
   * regclass or record printed by the planner (the OID and fields are gone),
   * nor aclitem (PostgreSQL has no binary output for it), the zero-based
   * vectors and anyarray.
   */
  binary: boolean;
}

const presented = (carriers: string[], len: number, name: string, binary = true): PresentedType => ({ carriers, len, name, binary });

export const PRESENTED_TYPES: Readonly<Record<number, PresentedType>> = {
  18: presented(['VARCHAR'], 1, '"char"'),
  19: presented(['VARCHAR'], 64, 'name'),
  194: presented(['VARCHAR'], -1, 'pg_node_tree'),
  1043: presented(['VARCHAR'], -1, 'character varying'), // information_schema's character_data, yes_or_no
  24: presented(['VARCHAR'], 4, 'regproc'),
  2205: presented(['VARCHAR'], 4, 'regclass', false),
  2206: presented(['VARCHAR'], 4, 'regtype'),
  2249: presented(['VARCHAR'], -1, 'record', false),
  2277: presented(['VARCHAR'], -1, 'anyarray', false), // pg_attribute.attmissingval, always NULL here
  26: presented(['BIGINT'], 4, 'oid'),
  28: presented(['BIGINT'], 4, 'xid'),
  1002: presented(['VARCHAR[]'], -1, '"char"[]'),
  1003: presented(['VARCHAR[]'], -1, 'name[]'),
  1028: presented(['BIGINT[]'], -1, 'oid[]'),
  1034: presented(['VARCHAR[]'], -1, 'aclitem[]', false),
  22: presented(['SMALLINT[]'], -1, 'int2vector', false),
  // pg_index.indclass is a list; pg_proc.proargtypes is kept in oidvector's text form
  30: presented(['BIGINT[]', 'VARCHAR'], -1, 'oidvector', false),
  // DuckDB has one JSON type, which keeps the text; server/rows prints it as jsonb_out would
  3802: presented(['JSON'], -1, 'jsonb'),
  869: presented(['VARCHAR'], -1, 'inet', false), // pg_stat_activity.client_addr
  // casts to char(n) / bpchar, varchar(n), bit(n), varbit: the typmod comes with them (PresentedAs);
  // a char(n) value is carried without its trailing spaces and padded to n on output (server/rows BpcharCodec)
  1042: presented(['VARCHAR'], -1, 'character'),
  1560: presented(['BIT'], -1, 'bit'),
  1562: presented(['BIT'], -1, 'bit varying'),
};

/**
 * What the planner says a result column holds: a PRESENTED_TYPES OID, or one
 * with PostgreSQL's typmod (varchar(n) and char(n): n + 4; bit(n), varbit(n): n).
 */
export type PresentedAs = number | { readonly oid: number; readonly typmod: number };

export const presentedOidOf = (p: PresentedAs): number => (typeof p === 'number' ? p : p.oid);
export const presentedTypmodOf = (p: PresentedAs | undefined): number => (p === undefined || typeof p === 'number' ? -1 : p.typmod);

/** Element type of the presented array types. */
export const PRESENTED_ELEMENT: Readonly<Record<number, number>> = { 1002: 18, 1003: 19, 1028: 26 };

/** regtype's text → its OID (the binary form of a printed regtype): the names format_type prints. */
export function regtypeOid(printed: string): number | undefined {
  for (const b of PG_BASE_TYPES) {
    if (b.formatted === printed) return b.oid;
    if (`${b.formatted}[]` === printed) return b.arrayOid;
  }
  return printed === 'unknown' ? 705 : printed === 'record' ? 2249 : undefined;
}

/** regproc's text → its OID (the binary form): '-' is none (0); the names the catalog columns hold (sql/catalogColumnTypes.ts). */
export function regprocOid(text: string): number | undefined {
  return text === '-' ? 0 : Object.hasOwn(REGPROC_OIDS, text) ? REGPROC_OIDS[text] : undefined;
}
