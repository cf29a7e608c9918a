/**
 * TPC-H's lineitem, generated: its 16 columns and types, every value a pure
 * function of the row number i (0..rows-1) written once and rendered for
 * DuckDB and for PostgreSQL, so both hold the same rows (checked by
 * `checksumSql`). DuckDB's tpch extension is not available here, so this is
 * not dbgen's text, but its shape: ~4 lines per order on dbgen's sparse order
 * keys, parts and suppliers of SF ≈ 1.7 (10M rows), dbgen's retail price
 * formula, dates spread over 1992–1998 with ship/commit/receipt offsets,
 * return flag and line status as dbgen derives them, the 4 ship instructions
 * and 7 ship modes, and a comment of 10–43 characters made of words chosen
 * by a multiplicative hash (about 10^9 combinations: Parquet cannot shrink it
 * to a dictionary, as with dbgen's text).
 */
import type { NestedField } from '../../catalog/iceberg/metadata.js';

export type Dialect = 'duckdb' | 'postgres';

export const LINEITEM_COLUMNS = [
  'l_orderkey', 'l_partkey', 'l_suppkey', 'l_linenumber', 'l_quantity', 'l_extendedprice', 'l_discount', 'l_tax',
  'l_returnflag', 'l_linestatus', 'l_shipdate', 'l_commitdate', 'l_receiptdate', 'l_shipinstruct', 'l_shipmode', 'l_comment',
] as const;

/** The Iceberg schema (field ids 1..16, TPC-H's types as Iceberg has them). */
export const LINEITEM_FIELDS: NestedField[] = LINEITEM_COLUMNS.map((name, i) => ({
  id: i + 1,
  name,
  required: false,
  type:
    name === 'l_linenumber' ? 'int'
    : /key$/.test(name) ? 'long'
    : /quantity|price|discount|tax/.test(name) ? 'decimal(15,2)'
    : /date$/.test(name) ? 'date'
    : 'string',
}));

/** The same table in PostgreSQL (TPC-H's types; text for its strings, as lakegate shows Iceberg strings). */
export const POSTGRES_DDL = (table: string) => `CREATE TABLE ${table} (
  l_orderkey bigint, l_partkey bigint, l_suppkey bigint, l_linenumber integer,
  l_quantity numeric(15,2), l_extendedprice numeric(15,2), l_discount numeric(15,2), l_tax numeric(15,2),
  l_returnflag text, l_linestatus text, l_shipdate date, l_commitdate date, l_receiptdate date,
  l_shipinstruct text, l_shipmode text, l_comment text)`;

const WORDS = [
  'furiously', 'quickly', 'carefully', 'blithely', 'slyly', 'ironic', 'final', 'regular', 'express', 'pending',
  'special', 'bold', 'even', 'silent', 'unusual', 'deposits', 'requests', 'packages', 'accounts', 'instructions',
  'theodolites', 'foxes', 'pinto', 'beans', 'asymptotes', 'dependencies', 'excuses', 'platelets', 'ideas', 'sleep',
  'wake', 'are', 'cajole', 'haggle', 'nag', 'use', 'boost', 'affix', 'detect', 'integrate',
  'maintain', 'nod', 'was', 'lose', 'sublate', 'solve', 'thrash', 'promise', 'engage', 'hinder',
  'print', 'x-ray', 'breach', 'eat', 'grow', 'impress', 'mold', 'poach', 'serve', 'run',
  'dazzle', 'snooze', 'doze', 'above',
];
const INSTRUCT = ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'];
const MODES = ['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'];

const list = (xs: string[]) => `(ARRAY[${xs.map((x) => `'${x}'`).join(', ')}])`;

/** SELECT of `rows` lineitem rows, in the dialect's SQL (columns in LINEITEM_COLUMNS' order). */
export function lineitemSelect(dialect: Dialect, rows: number): string {
  // integer division: DuckDB's `/` is a double division, PostgreSQL's keeps integers
  const div = (a: string, b: number | string) => (dialect === 'duckdb' ? `(${a} // ${b})` : `(${a} / ${b})`);
  const pick = (xs: string[], index: string) => `${list(xs)}[CAST(${index} AS INTEGER) + 1]`;
  const o = div('i', 4); // the order this line belongs to (4 lines per order)
  const orderkey = `(${div(o, 8)} * 32 + ${o} % 8 + 1)`; // dbgen's sparse keys: 8 of every 32
  const partkey = `(1 + (i * 104729) % 333333)`;
  const cents = `(90000 + ${div(partkey, 10)} % 20001 + 100 * (${partkey} % 1000))`; // dbgen's retail price, in cents
  const qty = `(1 + (i * 31) % 50)`;
  const money = (c: string) => `CAST(CAST(${c} AS DECIMAL(15,0)) * 0.01 AS DECIMAL(15,2))`;
  const orderdate = `(DATE '1992-01-01' + CAST((${o} * 2671) % 2406 AS INTEGER))`;
  const shipdate = `(${orderdate} + CAST(1 + (i * 7) % 121 AS INTEGER))`;
  const receiptdate = `(${shipdate} + CAST(1 + (i * 3) % 30 AS INTEGER))`;
  const hash = `((i * 2654435761) % 4294967296)`;
  const word = (k: number) => pick(WORDS, `${div(hash, 64 ** k)} % 64`);
  const text = [0, 1, 2, 3, 4].map(word).join(` || ' ' || `);
  const from = dialect === 'duckdb' ? `range(0, ${rows}) AS r(i)` : `generate_series(0::bigint, ${rows - 1}::bigint) AS g(i)`;
  return `SELECT
  CAST(${orderkey} AS BIGINT) AS l_orderkey,
  CAST(${partkey} AS BIGINT) AS l_partkey,
  CAST(1 + (${partkey} + (i % 4) * 4167) % 16667 AS BIGINT) AS l_suppkey,
  CAST(i % 4 + 1 AS INTEGER) AS l_linenumber,
  ${money(`${qty} * 100`)} AS l_quantity,
  ${money(`${qty} * ${cents}`)} AS l_extendedprice,
  ${money(`(i * 17) % 11`)} AS l_discount,
  ${money(`(i * 13) % 9`)} AS l_tax,
  CASE WHEN ${receiptdate} <= DATE '1995-06-17' THEN ${pick(['R', 'A'], 'i % 2')} ELSE 'N' END AS l_returnflag,
  CASE WHEN ${shipdate} > DATE '1995-06-17' THEN 'O' ELSE 'F' END AS l_linestatus,
  ${shipdate} AS l_shipdate,
  (${orderdate} + CAST(30 + (i * 11) % 61 AS INTEGER)) AS l_commitdate,
  ${receiptdate} AS l_receiptdate,
  ${pick(INSTRUCT, '(i * 3) % 4')} AS l_shipinstruct,
  ${pick(MODES, '(i * 5) % 7')} AS l_shipmode,
  substr(${text}, 1, CAST(10 + (i * 40503) % 34 AS INTEGER)) AS l_comment
FROM ${from}`;
}

/**
 * One row of aggregates, each cast to text, the same in DuckDB, PostgreSQL and
 * through lakegate when (and only when) the tables hold the same rows: exact
 * sums of every number, days of every date, lengths and first letters of every
 * string, extremes of the comment.
 */
export function checksumSql(table: string): string {
  const text = (c: string) => `CAST(${c} AS VARCHAR)`;
  const days = (c: string) => `sum(CAST(${c} - DATE '1992-01-01' AS BIGINT))`;
  const chars = (c: string) => `sum(length(${c}) * 1000 + ascii(${c}))`;
  return `SELECT
  ${text('count(*)')} AS n,
  ${text('sum(l_orderkey)')} AS s_orderkey, ${text('sum(l_partkey)')} AS s_partkey, ${text('sum(l_suppkey)')} AS s_suppkey,
  ${text('sum(l_linenumber)')} AS s_linenumber, ${text('sum(l_quantity)')} AS s_quantity,
  ${text('sum(l_extendedprice)')} AS s_extendedprice, ${text('sum(l_discount)')} AS s_discount, ${text('sum(l_tax)')} AS s_tax,
  ${text(chars('l_returnflag || l_linestatus'))} AS s_flags,
  ${text(days('l_shipdate'))} AS s_shipdate, ${text(days('l_commitdate'))} AS s_commitdate, ${text(days('l_receiptdate'))} AS s_receiptdate,
  ${text(chars('l_shipinstruct'))} AS s_shipinstruct, ${text(chars('l_shipmode'))} AS s_shipmode, ${text(chars('l_comment'))} AS s_comment,
  min(l_comment) AS min_comment, max(l_comment) AS max_comment
FROM ${table}`;
}
