/**
 * Creates bench.t_<rows> in the DuckDB file lakegate's demo will open, prints the
 * checksum row, and measures the "DuckDB direct" reference: the same SELECT * read
 * in-process through @duckdb/node-api (chunks only, and chunks converted to JS values).
 * Must run while lakegate is NOT running (DuckDB holds a file lock).
 *
 * usage: tsx bench/load-duckdb.ts --db DIR/demo.duckdb --rows 1000000,10000000 --out results.jsonl [--reps 3]
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { appendFileSync } from 'node:fs';
import { checksumSql, duckdbCreateSql, SCHEMA, tableName } from './lib/dataset.js';
import { arg, median } from './lib/util.js';

const db = arg('db');
const sizes = arg('rows').split(',').map(Number);
const out = arg('out');
const reps = Number(arg('reps', '3'));

const instance = await DuckDBInstance.create(db);
const conn = await instance.connect();
await conn.run(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);

for (const rows of sizes) {
  const t0 = performance.now();
  await conn.run(`DROP TABLE IF EXISTS ${tableName(rows)}`);
  await conn.run(duckdbCreateSql(rows));
  const loadMs = performance.now() - t0;
  const sum = await conn.runAndReadAll(checksumSql(rows));
  const checksum = sum.getRowObjectsJS()[0];
  appendFileSync(out, JSON.stringify({ kind: 'checksum', engine: 'duckdb', rows, checksum, loadMs }) + '\n');
  process.stdout.write(`duckdb: ${tableName(rows)} loaded in ${(loadMs / 1000).toFixed(1)} s\n`);
}
await conn.run('CHECKPOINT');

// The in-process reference: how fast DuckDB itself hands the rows to JavaScript.
for (const rows of sizes) {
  for (const convert of [false, true]) {
    const times: number[] = [];
    const n = convert ? 1 : reps; // converting 10M rows to JS values is slow; once is enough to show it
    for (let r = 0; r < n; r++) {
      const t0 = performance.now();
      const result = await conn.stream(`SELECT * FROM ${tableName(rows)}`);
      let count = 0;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        count += chunk.rowCount;
        if (convert) {
          for (let c = 0; c < chunk.columnCount; c++) chunk.getColumnValues(c);
        }
      }
      const ms = performance.now() - t0;
      if (count !== rows) throw new Error(`duckdb direct read ${count} rows, expected ${rows}`);
      times.push(ms);
    }
    const ms = median(times);
    const client = convert ? 'duckdb-node-values' : 'duckdb-node-chunks';
    appendFileSync(out, JSON.stringify({ kind: 'stream', target: 'duckdb', client, rows, ms, times, rowsPerSec: rows / (ms / 1000) }) + '\n');
    process.stdout.write(`duckdb direct (${client}) ${rows} rows: ${(rows / (ms / 1000) / 1e6).toFixed(2)} M rows/s\n`);
  }
}

conn.closeSync();
instance.closeSync();
