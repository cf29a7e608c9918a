/**
 * The data both sides of the fidelity corpus hold: a small TPC-H (scale far
 * below 0.01, same schema and value domains, deterministic) plus a table of
 * the types analysts meet beyond TPC-H (bigint, double, boolean, timestamps,
 * JSON text, NULLs). Rows are generated once here and written twice: as
 * Iceberg tables lakegate serves and as PostgreSQL tables.
 */
import type { NestedField } from '../../catalog/iceberg/metadata.js';

export interface Column {
  name: string;
  /** Iceberg type (the Iceberg table) */
  iceberg: string;
  /** PostgreSQL type (the reference table): what lakegate presents for the Iceberg type */
  pg: string;
}

export interface Table {
  name: string;
  columns: Column[];
  /** literal SQL values, one array per row, valid in both DuckDB and PostgreSQL */
  rows: string[][];
}

export const NAMESPACE = 'tpch';

/** A small deterministic generator (mulberry32): the same rows on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const str = (s: string | null) => (s === null ? 'NULL' : `'${s.replace(/'/g, "''")}'`);
const dec = (v: number, p: number, s: number) => `CAST(${v.toFixed(s)} AS DECIMAL(${p},${s}))`;
const date = (d: Date) => `DATE '${d.toISOString().slice(0, 10)}'`;
const int = (n: number) => String(n);
const c = (name: string, iceberg: string, pg: string): Column => ({ name, iceberg, pg });

const REGIONS = ['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST'];
const NATIONS: [string, number][] = [
  ['ALGERIA', 0], ['ARGENTINA', 1], ['BRAZIL', 1], ['CANADA', 1], ['EGYPT', 4], ['ETHIOPIA', 0], ['FRANCE', 3],
  ['GERMANY', 3], ['INDIA', 2], ['INDONESIA', 2], ['IRAN', 4], ['IRAQ', 4], ['JAPAN', 2], ['JORDAN', 4], ['KENYA', 0],
  ['MOROCCO', 0], ['MOZAMBIQUE', 0], ['PERU', 1], ['CHINA', 2], ['ROMANIA', 3], ['SAUDI ARABIA', 4], ['VIETNAM', 2],
  ['RUSSIA', 3], ['UNITED KINGDOM', 3], ['UNITED STATES', 1],
];
const SEGMENTS = ['AUTOMOBILE', 'BUILDING', 'FURNITURE', 'HOUSEHOLD', 'MACHINERY'];
const PRIORITIES = ['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW'];
const SHIPMODES = ['AIR', 'FOB', 'MAIL', 'RAIL', 'REG AIR', 'SHIP', 'TRUCK'];
const INSTRUCT = ['COLLECT COD', 'DELIVER IN PERSON', 'NONE', 'TAKE BACK RETURN'];
const CONTAINERS = ['SM CASE', 'SM BOX', 'MED BAG', 'MED BOX', 'LG CASE', 'LG BOX', 'JUMBO PKG', 'WRAP CASE'];
const TYPES = ['STANDARD ANODIZED TIN', 'SMALL PLATED BRASS', 'MEDIUM POLISHED COPPER', 'LARGE BRUSHED STEEL', 'ECONOMY BURNISHED NICKEL', 'PROMO ANODIZED STEEL'];
const COLORS = ['almond', 'antique', 'blue', 'forest', 'green', 'ivory', 'lime', 'navy', 'orchid', 'peach', 'red', 'tan'];
const WORDS = ['carefully', 'final', 'deposits', 'special', 'requests', 'quickly', 'ironic', 'packages', 'express', 'accounts', 'furiously', 'pending', 'Customer', 'Complaints'];

export function fidelityTables(): Table[] {
  const r = rng(20240101);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const between = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const money = (lo: number, hi: number) => Math.round((lo + r() * (hi - lo)) * 100) / 100;
  const comment = () => Array.from({ length: between(2, 5) }, () => pick(WORDS)).join(' ');
  const day = (from: string, span: number) => new Date(Date.parse(from) + between(0, span) * 86400000);

  const region: Table = {
    name: 'region',
    columns: [c('r_regionkey', 'int', 'integer'), c('r_name', 'string', 'text'), c('r_comment', 'string', 'text')],
    rows: REGIONS.map((n, i) => [int(i), str(n), str(comment())]),
  };
  const nation: Table = {
    name: 'nation',
    columns: [c('n_nationkey', 'int', 'integer'), c('n_name', 'string', 'text'), c('n_regionkey', 'int', 'integer'), c('n_comment', 'string', 'text')],
    rows: NATIONS.map(([n, rk], i) => [int(i), str(n), int(rk), str(comment())]),
  };
  const supplier: Table = {
    name: 'supplier',
    columns: [
      c('s_suppkey', 'int', 'integer'), c('s_name', 'string', 'text'), c('s_address', 'string', 'text'), c('s_nationkey', 'int', 'integer'),
      c('s_phone', 'string', 'text'), c('s_acctbal', 'decimal(15,2)', 'numeric(15,2)'), c('s_comment', 'string', 'text'),
    ],
    rows: Array.from({ length: 12 }, (_, i) => {
      const nk = between(0, 24);
      return [int(i + 1), str(`Supplier#${String(i + 1).padStart(9, '0')}`), str(`addr ${between(1, 999)}`), int(nk), str(`${10 + nk}-${between(100, 999)}-${between(100, 999)}-${between(1000, 9999)}`), dec(money(-999.99, 9999.99), 15, 2), str(i % 5 === 0 ? 'wake Customer Complaints' : comment())];
    }),
  };
  const part: Table = {
    name: 'part',
    columns: [
      c('p_partkey', 'int', 'integer'), c('p_name', 'string', 'text'), c('p_mfgr', 'string', 'text'), c('p_brand', 'string', 'text'), c('p_type', 'string', 'text'),
      c('p_size', 'int', 'integer'), c('p_container', 'string', 'text'), c('p_retailprice', 'decimal(15,2)', 'numeric(15,2)'), c('p_comment', 'string', 'text'),
    ],
    rows: Array.from({ length: 40 }, (_, i) => {
      const m = between(1, 5);
      return [int(i + 1), str(`${pick(COLORS)} ${pick(COLORS)} ${pick(COLORS)}`), str(`Manufacturer#${m}`), str(`Brand#${m}${between(1, 5)}`), str(pick(TYPES)), int(between(1, 50)), str(pick(CONTAINERS)), dec(money(900, 2000), 15, 2), str(comment())];
    }),
  };
  const partsupp: Table = {
    name: 'partsupp',
    columns: [c('ps_partkey', 'int', 'integer'), c('ps_suppkey', 'int', 'integer'), c('ps_availqty', 'int', 'integer'), c('ps_supplycost', 'decimal(15,2)', 'numeric(15,2)'), c('ps_comment', 'string', 'text')],
    rows: Array.from({ length: 40 }, (_, i) => [0, 1].map((k) => [int(i + 1), int(((i + k * 6) % 12) + 1), int(between(1, 9999)), dec(money(1, 1000), 15, 2), str(comment())])).flat(),
  };
  const customer: Table = {
    name: 'customer',
    columns: [
      c('c_custkey', 'int', 'integer'), c('c_name', 'string', 'text'), c('c_address', 'string', 'text'), c('c_nationkey', 'int', 'integer'), c('c_phone', 'string', 'text'),
      c('c_acctbal', 'decimal(15,2)', 'numeric(15,2)'), c('c_mktsegment', 'string', 'text'), c('c_comment', 'string', 'text'),
    ],
    rows: Array.from({ length: 30 }, (_, i) => {
      const nk = between(0, 24);
      return [int(i + 1), str(`Customer#${String(i + 1).padStart(9, '0')}`), str(`street ${between(1, 999)}`), int(nk), str(`${10 + nk}-${between(100, 999)}-${between(100, 999)}-${between(1000, 9999)}`), dec(money(-999.99, 9999.99), 15, 2), str(pick(SEGMENTS)), str(comment())];
    }),
  };
  const orders: Table = {
    name: 'orders',
    columns: [
      c('o_orderkey', 'int', 'integer'), c('o_custkey', 'int', 'integer'), c('o_orderstatus', 'string', 'text'), c('o_totalprice', 'decimal(15,2)', 'numeric(15,2)'),
      c('o_orderdate', 'date', 'date'), c('o_orderpriority', 'string', 'text'), c('o_clerk', 'string', 'text'), c('o_shippriority', 'int', 'integer'), c('o_comment', 'string', 'text'),
    ],
    rows: [],
  };
  const lineitem: Table = {
    name: 'lineitem',
    columns: [
      c('l_orderkey', 'int', 'integer'), c('l_partkey', 'int', 'integer'), c('l_suppkey', 'int', 'integer'), c('l_linenumber', 'int', 'integer'),
      c('l_quantity', 'decimal(15,2)', 'numeric(15,2)'), c('l_extendedprice', 'decimal(15,2)', 'numeric(15,2)'), c('l_discount', 'decimal(15,2)', 'numeric(15,2)'),
      c('l_tax', 'decimal(15,2)', 'numeric(15,2)'), c('l_returnflag', 'string', 'text'), c('l_linestatus', 'string', 'text'), c('l_shipdate', 'date', 'date'),
      c('l_commitdate', 'date', 'date'), c('l_receiptdate', 'date', 'date'), c('l_shipinstruct', 'string', 'text'), c('l_shipmode', 'string', 'text'), c('l_comment', 'string', 'text'),
    ],
    rows: [],
  };
  for (let o = 1; o <= 120; o++) {
    const od = day('1992-01-01', 2400);
    const lines = between(1, 6);
    let total = 0;
    for (let l = 1; l <= lines; l++) {
      const pk = between(1, 40);
      const qty = between(1, 50);
      const price = Math.round(qty * (900 + pk) * 100) / 100;
      const disc = between(0, 10) / 100;
      const tax = between(0, 8) / 100;
      total += price * (1 + tax) * (1 - disc);
      const ship = new Date(od.getTime() + between(1, 121) * 86400000);
      const commit = new Date(od.getTime() + between(30, 90) * 86400000);
      const receipt = new Date(ship.getTime() + between(1, 30) * 86400000);
      const shipped = ship.getTime() <= Date.parse('1995-06-17');
      lineitem.rows.push([
        int(o), int(pk), int(((pk + l) % 12) + 1), int(l), dec(qty, 15, 2), dec(price, 15, 2), dec(disc, 15, 2), dec(tax, 15, 2),
        str(shipped ? pick(['R', 'A']) : 'N'), str(shipped ? 'F' : 'O'), date(ship), date(commit), date(receipt), str(pick(INSTRUCT)), str(pick(SHIPMODES)), str(comment()),
      ]);
    }
    orders.rows.push([
      int(o), int(between(1, 30)), str(pick(['F', 'O', 'P'])), dec(Math.round(total * 100) / 100, 15, 2), date(od), str(pick(PRIORITIES)),
      str(`Clerk#${String(between(1, 20)).padStart(9, '0')}`), int(0), str(o % 7 === 0 ? 'special requests pending' : comment()),
    ]);
  }
  const events: Table = {
    name: 'events',
    columns: [
      c('id', 'long', 'bigint'), c('kind', 'string', 'text'), c('ts', 'timestamp', 'timestamp'), c('ts_tz', 'timestamptz', 'timestamptz'),
      c('score', 'double', 'double precision'), c('ok', 'boolean', 'boolean'), c('amount', 'decimal(12,4)', 'numeric(12,4)'), c('payload', 'string', 'text'), c('day', 'date', 'date'),
    ],
    rows: Array.from({ length: 24 }, (_, i) => {
      const at = new Date(Date.parse('2024-01-01T00:00:00Z') + between(0, 90 * 24 * 3600) * 1000);
      const ts = at.toISOString().replace('T', ' ').slice(0, 19);
      const kind = i % 6 === 5 ? null : pick(['click', 'view', 'buy', 'Sign-Up']);
      const payload = i % 8 === 7 ? null : JSON.stringify({ user: `u${between(1, 5)}`, n: between(1, 9), tags: [pick(COLORS), pick(COLORS)], nested: { ok: r() > 0.5 } });
      return [
        int(1_000_000_000_000 + i * 37), str(kind), `TIMESTAMP '${ts}'`, `TIMESTAMPTZ '${ts}+00'`, i % 9 === 4 ? 'NULL' : (Math.round(r() * 100000) / 1000).toString(),
        i % 7 === 3 ? 'NULL' : r() > 0.5 ? 'true' : 'false', i % 10 === 6 ? 'NULL' : dec(money(-500, 5000) + between(0, 99) / 10000, 12, 4), str(payload), date(at),
      ];
    }),
  };
  return [region, nation, supplier, part, partsupp, customer, orders, lineitem, events];
}

export function icebergFields(t: Table): NestedField[] {
  return t.columns.map((col, i) => ({ id: i + 1, name: col.name, type: col.iceberg, required: false }));
}

export const valuesSql = (t: Table): string => `VALUES ${t.rows.map((r) => `(${r.join(', ')})`).join(', ')}`;

/** The reference side: CREATE TABLE and INSERT statements for PostgreSQL. */
export function postgresDdl(tables: Table[]): string[] {
  const out = [`CREATE SCHEMA ${NAMESPACE}`, 'CREATE SCHEMA sales'];
  out.push('CREATE TABLE sales.orders (id integer, ssn text, amount numeric(10,2), region text)');
  out.push("INSERT INTO sales.orders VALUES (1, '111-11-1111', 100.00, 'EU'), (2, '222-22-2222', 250.50, 'US')");
  for (const t of tables) {
    out.push(`CREATE TABLE ${NAMESPACE}.${t.name} (${t.columns.map((col) => `${col.name} ${col.pg}`).join(', ')})`);
    out.push(`INSERT INTO ${NAMESPACE}.${t.name} ${valuesSql(t)}`);
  }
  return out;
}
