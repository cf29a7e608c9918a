/**
 * Writes bench.t_<rows> as an Iceberg table into the warehouse lakegate's demo
 * serves (DIR), prints the checksum row, and measures the "DuckDB direct"
 * reference: the same SELECT * read in-process through @duckdb/node-api with
 * DuckDB's iceberg_scan on the same table (chunks only, and chunks converted to
 * JS values). Run it before lakegate starts on DIR.
 *
 * usage: tsx bench/load-duckdb.ts --data-dir DIR --rows 1000000,10000000 --out results.jsonl [--reps 3] [--latency-seconds 5]
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { appendFileSync } from 'node:fs';
import { defaultExtensionDirectory, ensureExtensions } from '../server/extensions.js';
import { checksumSql, COLUMNS, tableName } from './lib/dataset.js';
import { createIcebergBenchTable } from './lib/icebergTable.js';
import { arg, median, percentile } from './lib/util.js';

const dataDir = arg('data-dir');
const sizes = arg('rows').split(',').map(Number);
const out = arg('out');
const reps = Number(arg('reps', '3'));
const latencyMs = Number(arg('latency-seconds', '5')) * 1000;

const extensionDirectory = defaultExtensionDirectory();
await ensureExtensions(extensionDirectory, ['avro', 'iceberg']);
const instance = await DuckDBInstance.create(':memory:', { extension_directory: extensionDirectory, autoinstall_known_extensions: 'false' });
const conn = await instance.connect();
await conn.run('LOAD iceberg');
/** bench.t_<rows> → iceberg_scan('<metadata>'): the reference reads the very files lakegate reads. */
const scans = new Map<number, string>();
const source = (rows: number) => scans.get(rows)!;

for (const rows of sizes) {
  const t0 = performance.now();
  const metadata = await createIcebergBenchTable(conn, dataDir, rows);
  scans.set(rows, `iceberg_scan('${metadata.replace(/'/g, "''")}')`);
  const loadMs = performance.now() - t0;
  const sum = await conn.runAndReadAll(checksumSql(rows).split(tableName(rows)).join(`${source(rows)} AS t_${rows}`));
  const checksum = sum.getRowObjectsJS()[0];
  appendFileSync(out, JSON.stringify({ kind: 'checksum', engine: 'duckdb', rows, checksum, loadMs }) + '\n');
  process.stdout.write(`duckdb: ${tableName(rows)} written as Iceberg in ${(loadMs / 1000).toFixed(1)} s\n`);
}

// The in-process reference: how fast DuckDB itself hands the rows to JavaScript.
for (const rows of sizes) {
  for (const convert of [false, true]) {
    const times: number[] = [];
    const n = convert ? 1 : reps; // converting 10M rows to JS values is slow; once is enough to show it
    for (let r = 0; r < n; r++) {
      const t0 = performance.now();
      const result = await conn.stream(`SELECT * FROM ${source(rows)}`);
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

// The in-process floor under lakegate's point-query latency: the same prepared
// SELECT … WHERE id = $1 on DuckDB connections, 1 and 16 concurrent loops, random ids.
{
  const rows = sizes[0];
  for (const clients of [1, 16]) {
    const conns = await Promise.all(Array.from({ length: clients }, () => instance.connect()));
    const lat: number[] = [];
    const deadline = performance.now() + latencyMs;
    let seed = 12345;
    const nextId = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return 1 + (seed % rows); };
    await Promise.all(conns.map(async (c) => {
      const ps = await c.prepare(`SELECT ${COLUMNS.join(', ')} FROM ${source(rows)} WHERE id = $1`);
      while (performance.now() < deadline) {
        const t0 = performance.now();
        ps.bindInteger(1, nextId());
        const r = await ps.runAndReadAll();
        if (r.currentRowCount !== 1) throw new Error('duckdb point query returned ' + r.currentRowCount + ' rows');
        r.getRows();
        lat.push((performance.now() - t0) * 1000);
      }
    }));
    for (const c of conns) c.closeSync();
    const sorted = Float64Array.from(lat).sort();
    const rec = { kind: 'latency', target: 'duckdb', clients, mode: 'in-process prepared', rows, seconds: latencyMs / 1000, count: sorted.length, failed: 0,
      p50us: percentile(sorted, 50), p99us: percentile(sorted, 99), tps: sorted.length / (latencyMs / 1000) };
    appendFileSync(out, JSON.stringify(rec) + '\n');
    process.stdout.write(`duckdb direct point query, ${clients} connection(s): p50 ${(rec.p50us / 1000).toFixed(3)} ms, p99 ${(rec.p99us / 1000).toFixed(3)} ms, ${rec.tps.toFixed(0)} /s\n`);
  }
}

conn.closeSync();
instance.closeSync();
