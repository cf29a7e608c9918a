/**
 * The Iceberg read path side by side (issue 9): the same queries over the same
 * Iceberg table through lakegate (embedded catalog, node-postgres client,
 * catalog gate and planning included) and through DuckDB's iceberg_scan
 * in-process on the same metadata file (the ceiling). Then the catalog round
 * trips per query, cold and within the cache TTL. Not a test: figures and
 * ratios, written to bench/out/<time>-iceberg/.
 *
 *   npx tsx bench/iceberg.ts [--rows 10000000] [--reps 5]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import pino from 'pino';
import type { CatalogService } from '../catalog/userCatalog.js';
import { parseConfig } from '../server/config.js';
import { demoConfig } from '../server/demo.js';
import { defaultExtensionDirectory, ensureExtensions } from '../server/extensions.js';
import { startGateway } from '../server/gateway.js';
import { createPlanner } from '../server/planner.js';
import { tableName } from './lib/dataset.js';
import { createIcebergBenchTable } from './lib/icebergTable.js';
import { arg, median } from './lib/util.js';

const rows = Number(arg('rows', '10000000'));
const reps = Number(arg('reps', '5'));
const dir = mkdtempSync(join(tmpdir(), 'lakegate-bench-ice-'));
const outDir = join('bench', 'out', `${new Date().toISOString().replace(/[:.]/g, '-')}-iceberg`);
mkdirSync(outDir, { recursive: true });
const lines: string[] = [];
const say = (s: string) => {
  lines.push(s);
  process.stdout.write(`${s}\n`);
};

const t = tableName(rows);
/** Each query, written once against the table name; the reference swaps in iceberg_scan. */
const QUERIES: Record<string, string> = {
  aggregate: `SELECT count(*), sum(big), sum(amount), min(name), max(ts) FROM ${t}`,
  'grouped aggregate': `SELECT d, count(*), sum(amount) FROM ${t} GROUP BY d ORDER BY d LIMIT 5`,
  'filtered scan (full scan, ~1 row in 100k kept)': `SELECT * FROM ${t} WHERE amount = 123.45`,
  'point query': `SELECT * FROM ${t} WHERE id = ${Math.floor(rows / 2)}`,
};

try {
  const extensionDirectory = defaultExtensionDirectory();
  await ensureExtensions(extensionDirectory, ['avro', 'iceberg']);
  const threads = 2;
  const ref = await DuckDBInstance.create(':memory:', { extension_directory: extensionDirectory, autoinstall_known_extensions: 'false', threads: String(threads) });
  const rc = await ref.connect();
  await rc.run('LOAD iceberg');
  const t0 = performance.now();
  const metadata = await createIcebergBenchTable(rc, join(dir, 'data'), rows);
  say(`table ${t}: ${rows} rows written as Iceberg in ${((performance.now() - t0) / 1000).toFixed(1)} s (${metadata})`);
  const scan = `iceberg_scan('${metadata}')`;

  let service: CatalogService | null = null;
  const base = await demoConfig({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'data') });
  const config = parseConfig({ ...base, engine: { threads }, catalog: { ...base.catalog!, cacheTtlMs: 2000 } });
  const gateway = await startGateway(config, pino({ level: 'silent' }), async (admin, cfg, deps) => {
    service = deps.catalog ?? null;
    return createPlanner(admin, cfg, deps);
  });
  const client = new pg.Client({ host: '127.0.0.1', port: gateway.port, user: 'alice', password: 'alice', database: 'demo' });
  await client.connect();

  say(`\n| query | DuckDB iceberg_scan in-process (ms, median of ${reps}) | lakegate via node-postgres (ms) | ratio |`);
  say('|---|---|---|---|');
  for (const [name, sql] of Object.entries(QUERIES)) {
    const refSql = sql.split(t).join(`${scan} AS t`);
    const refTimes: number[] = [];
    const lgTimes: number[] = [];
    let refRows = -1;
    let lgRows = -1;
    // interleaved, after one warm-up each
    await rc.runAndReadAll(refSql);
    await client.query(sql);
    for (let i = 0; i < reps; i++) {
      let s = performance.now();
      refRows = (await rc.runAndReadAll(refSql)).currentRowCount;
      refTimes.push(performance.now() - s);
      s = performance.now();
      lgRows = (await client.query(sql)).rowCount ?? -1;
      lgTimes.push(performance.now() - s);
    }
    if (refRows !== lgRows) throw new Error(`${name}: DuckDB returned ${refRows} rows, lakegate ${lgRows}`);
    const r = median(refTimes);
    const l = median(lgTimes);
    say(`| ${name} | ${r.toFixed(1)} | ${l.toFixed(1)} | ${(l / r).toFixed(2)}× |`);
  }

  // Catalog round trips: a fresh user cache (cold), then repeats within the TTL, then after it.
  const calls = () => Object.values(service!.calls).reduce((a, b) => a + b, 0);
  const loads = () => service!.calls.loadTable;
  await new Promise((r) => setTimeout(r, 2100));
  const bob = new pg.Client({ host: '127.0.0.1', port: gateway.port, user: 'bob', password: 'bob', database: 'demo' });
  await bob.connect();
  const c0 = calls();
  const l0 = loads();
  await bob.query(QUERIES['point query']!);
  const cold = { calls: calls() - c0, loads: loads() - l0 };
  const c1 = calls();
  const l1 = loads();
  const N = 50;
  for (let i = 0; i < N; i++) await bob.query(QUERIES['point query']!);
  const warm = { calls: (calls() - c1) / N, loads: (loads() - l1) / N };
  await new Promise((r) => setTimeout(r, 2100));
  const c2 = calls();
  const l2 = loads();
  await bob.query(QUERIES['point query']!);
  const expired = { calls: calls() - c2, loads: loads() - l2 };
  say(`\n| catalog round trips per query (cache TTL 2 s) | all calls | table loads |`);
  say('|---|---|---|');
  say(`| cold (first query of a user) | ${cold.calls} | ${cold.loads} |`);
  say(`| cached (${N} queries within the TTL) | ${warm.calls.toFixed(2)} | ${warm.loads.toFixed(2)} |`);
  say(`| first query after the TTL | ${expired.calls} | ${expired.loads} |`);

  await bob.end();
  await client.end();
  await gateway.close();

  // Denied vs missing: with no cache every statement asks the catalog; the
  // answers must not differ in time any more than in text.
  const noCache = parseConfig({ ...base, engine: { threads }, catalog: { ...base.catalog!, cacheTtlMs: 0 } });
  const gw2 = await startGateway(noCache, pino({ level: 'silent' }), createPlanner);
  const dave = new pg.Client({ host: '127.0.0.1', port: gw2.port, user: 'dave', password: 'dave', database: 'demo' });
  await dave.connect();
  const timesOf = { denied: [] as number[], missing: [] as number[] };
  const probe = { denied: 'SELECT * FROM sales.orders', missing: 'SELECT * FROM sales.ordery' };
  for (let i = 0; i < 400; i++) {
    for (const k of (i % 2 ? ['denied', 'missing'] : ['missing', 'denied']) as ('denied' | 'missing')[]) {
      const s = performance.now();
      await dave.query(probe[k]).catch((e: { code?: string }) => {
        if (e.code !== '42P01') throw e;
      });
      timesOf[k].push(performance.now() - s);
    }
  }
  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;
  say(`\n| dave, no cache, 400 each, interleaved | p10 (ms) | median (ms) | p90 (ms) |`);
  say('|---|---|---|---|');
  for (const k of ['denied', 'missing'] as const) say(`| ${k} (${probe[k]}) | ${q(timesOf[k], 0.1).toFixed(3)} | ${q(timesOf[k], 0.5).toFixed(3)} | ${q(timesOf[k], 0.9).toFixed(3)} |`);
  await dave.end();
  await gw2.close();
  rc.closeSync();
  ref.closeSync();
  writeFileSync(join(outDir, 'report.md'), lines.join('\n') + '\n');
  process.stdout.write(`\nreport: ${join(outDir, 'report.md')}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
