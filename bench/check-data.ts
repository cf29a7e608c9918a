/**
 * Fails (exit 1) unless PostgreSQL and DuckDB report the same checksum row for every
 * size: both servers then stream the same data.
 *
 * usage: tsx bench/check-data.ts --out results.jsonl --rows 1000000,10000000
 */
import { appendFileSync } from 'node:fs';
import { arg, readJsonl } from './lib/util.js';

interface Checksum { kind: string; engine: string; rows: number; checksum: Record<string, string> }

const out = arg('out');
const sizes = arg('rows').split(',').map(Number);
const all = readJsonl<Checksum>(out).filter((r) => r.kind === 'checksum');
let ok = true;
for (const rows of sizes) {
  const pg = all.find((r) => r.engine === 'postgres' && r.rows === rows);
  const dd = all.find((r) => r.engine === 'duckdb' && r.rows === rows);
  const a = JSON.stringify(pg?.checksum);
  const b = JSON.stringify(dd?.checksum);
  const equal = pg !== undefined && dd !== undefined && a === b;
  appendFileSync(out, JSON.stringify({ kind: 'data-check', rows, equal }) + '\n');
  process.stdout.write(`data check ${rows} rows: ${equal ? 'PostgreSQL = DuckDB' : 'MISMATCH'}\n`);
  if (!equal) {
    process.stdout.write(`  postgres: ${a}\n  duckdb:   ${b}\n`);
    ok = false;
  }
}
process.exit(ok ? 0 : 1);
