/**
 * Creates bench.t_<rows> in PostgreSQL (same formulas as DuckDB), with a primary
 * key on id, and prints the checksum row.
 *
 * usage: tsx bench/load-postgres.ts --port P --rows 1000000,10000000 --out results.jsonl
 * (connects to 127.0.0.1 as PGUSER/PGPASSWORD/PGDATABASE from the environment)
 */
import pg from 'pg';
import { appendFileSync } from 'node:fs';
import { checksumSql, postgresCreateSql, SCHEMA, tableName } from './lib/dataset.js';
import { arg } from './lib/util.js';

const port = Number(arg('port'));
const sizes = arg('rows').split(',').map(Number);
const out = arg('out');

const client = new pg.Client({ host: '127.0.0.1', port });
await client.connect();
try {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
  for (const rows of sizes) {
    const t0 = performance.now();
    await client.query(`DROP TABLE IF EXISTS ${tableName(rows)}`);
    for (const sql of postgresCreateSql(rows)) await client.query(sql);
    const loadMs = performance.now() - t0;
    const r = await client.query(checksumSql(rows));
    appendFileSync(out, JSON.stringify({ kind: 'checksum', engine: 'postgres', rows, checksum: r.rows[0], loadMs }) + '\n');
    process.stdout.write(`postgres: ${tableName(rows)} loaded in ${(loadMs / 1000).toFixed(1)} s\n`);
  }
} finally {
  await client.end();
}
