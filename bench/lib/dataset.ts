/**
 * The benchmark table, defined once for both engines.
 *
 * bench.t_<rows>(id integer, big bigint, name varchar, amount decimal(12,2),
 *                d date, ts timestamp, flag boolean)
 *
 * Every value is a pure function of the row number i (1..rows), written with the
 * same formula in DuckDB SQL and in PostgreSQL SQL, so both engines hold the same
 * rows. `checksumSql` is valid in both dialects and gives the same text in both
 * when (and only when) the data match column by column.
 */

export const SCHEMA = 'bench';

export function tableName(rows: number): string {
  return `${SCHEMA}.t_${rows}`;
}

export const COLUMNS = ['id', 'big', 'name', 'amount', 'd', 'ts', 'flag'] as const;

/** DuckDB: CREATE TABLE … AS from range(). */
export function duckdbCreateSql(rows: number): string {
  return `CREATE TABLE ${tableName(rows)} AS
SELECT
  CAST(i AS INTEGER)                                               AS id,
  CAST(i AS BIGINT) * 1000003                                      AS big,
  'item-' || CAST(i AS VARCHAR)                                    AS name,
  CAST(CAST((i * 37) % 100000 AS DECIMAL(12,0)) * 0.01 AS DECIMAL(12,2)) AS amount,
  DATE '2020-01-01' + CAST(i % 3650 AS INTEGER)                    AS d,
  TIMESTAMP '2020-01-01 00:00:00' + i * INTERVAL '1001 milliseconds' AS ts,
  (i % 3 = 0)                                                      AS flag
FROM range(1, ${rows + 1}) r(i)`; // insertion order is kept: ids stay sorted, so DuckDB's zone maps apply
}

/** PostgreSQL: the same rows from generate_series(), then the primary key and VACUUM ANALYZE. */
export function postgresCreateSql(rows: number): string[] {
  const t = tableName(rows);
  return [
    `CREATE TABLE ${t} (id integer NOT NULL, big bigint, name varchar, amount numeric(12,2), d date, ts timestamp, flag boolean)`,
    `INSERT INTO ${t}
SELECT
  i::integer,
  i::bigint * 1000003,
  'item-' || i::text,
  ((((i * 37) % 100000)::numeric(12,0)) * 0.01)::numeric(12,2),
  DATE '2020-01-01' + (i % 3650)::integer,
  TIMESTAMP '2020-01-01 00:00:00' + i * INTERVAL '1001 milliseconds',
  (i % 3 = 0)
FROM generate_series(1::bigint, ${rows}::bigint) AS g(i)`,
    // A real deployment would look ids up through an index; lakegate (DuckDB) has none.
    `ALTER TABLE ${t} ADD PRIMARY KEY (id)`,
    `VACUUM (ANALYZE) ${t}`,
  ];
}

/**
 * One row of aggregates, each cast to text, that is identical in both engines when
 * the data are. Sums are exact (PostgreSQL numeric, DuckDB hugeint/decimal).
 */
export function checksumSql(rows: number): string {
  const t = tableName(rows);
  return `SELECT
  CAST(count(*) AS VARCHAR) AS n,
  CAST(sum(CAST(id AS BIGINT)) AS VARCHAR) AS s_id,
  CAST(sum(big) AS VARCHAR) AS s_big,
  CAST(sum(length(name)) AS VARCHAR) AS s_name_len,
  CAST(count(DISTINCT name) AS VARCHAR) AS n_name,
  CAST(sum(amount) AS VARCHAR) AS s_amount,
  CAST(sum(CAST(d - DATE '2000-01-01' AS BIGINT)) AS VARCHAR) AS s_d,
  CAST(sum(CAST(extract(epoch FROM ts) * 1000 AS BIGINT)) AS VARCHAR) AS s_ts_ms,
  CAST(sum(CASE WHEN flag THEN 1 ELSE 0 END) AS VARCHAR) AS n_flag,
  CAST(min(name) AS VARCHAR) AS min_name,
  CAST(max(ts) AS VARCHAR) AS max_ts
FROM ${t}`;
}

/** Rows compared byte for byte through psql against both servers (text output). */
export function sampleSql(rows: number): string {
  const step = Math.max(1, Math.floor(rows / 50));
  return `SELECT * FROM ${tableName(rows)} WHERE id % ${step} = 1 OR id = ${rows} ORDER BY id`;
}
