/**
 * Writes through the loopback catalog endpoint, timed from a locked-down
 * DuckDB 1.5.5 (as tests/support/writableLake.ts makes it): the latency of a
 * one-row INSERT (each its own commit) and the wall time of a CREATE TABLE +
 * INSERT … SELECT of generated rows in one transaction (how CREATE TABLE AS
 * runs). Against the embedded catalog by default; `--rest` puts Apache
 * Iceberg's REST server (tests/support/icebergRest.ts) behind the endpoint.
 *
 *   npx tsx bench/loopbackWrites.ts [--rest] [--inserts 50] [--rows 1000000]
 */
import { RestCatalog } from '../catalog/iceberg/rest.js';
import type { WritableCatalog } from '../catalog/iceberg/api.js';
import { LoopbackCatalog } from '../catalog/loopback/server.js';
import { startIcebergRest } from '../tests/support/icebergRest.js';
import { attachLoopback, lockedDuckDb, startWritableLake } from '../tests/support/writableLake.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const inserts = arg('inserts', 50);
const rows = arg('rows', 1_000_000);
const rest = process.argv.includes('--rest');

const lake = startWritableLake();
const server = rest ? await startIcebergRest({ warehouseDir: lake.dir }) : null;
const catalog: WritableCatalog = server
  ? new RestCatalog({ uri: server.url, warehouse: 'lakegate', timeoutMs: 60_000, retries: 1, vendedCredentials: false, storageRoots: [lake.dir] })
  : lake.catalog;
const endpoint = await LoopbackCatalog.start({ catalog });
const duck = await lockedDuckDb([lake.dir]);
const session = endpoint.open({ user: 'carol' });
const conn = await duck.connect();
try {
  await attachLoopback(conn, session.url);
  await conn.run('CREATE SCHEMA lake.bench');
  await conn.run('CREATE TABLE lake.bench.small (id INTEGER, label VARCHAR)');
  const ms: number[] = [];
  for (let i = 0; i < inserts; i++) {
    const t0 = performance.now();
    await conn.run(`INSERT INTO lake.bench.small VALUES (${i}, 'row ${i}')`);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(1);
  const t0 = performance.now();
  await conn.run('BEGIN');
  await conn.run('CREATE TABLE lake.bench.ctas (id BIGINT, label VARCHAR, amount DOUBLE, day DATE)');
  await conn.run(`INSERT INTO lake.bench.ctas SELECT range, 'label ' || (range % 1000), range * 0.5, DATE '2024-01-01' + CAST(range % 365 AS INTEGER) FROM range(${rows})`);
  await conn.run('COMMIT');
  const ctas = performance.now() - t0;
  const count = (await conn.runAndReadAll('SELECT count(*) FROM lake.bench.ctas')).getRows()[0]![0];
  process.stdout.write(
    `catalog: ${rest ? 'Iceberg REST server' : 'embedded'}\n` +
      `one-row INSERT through the endpoint, ${inserts} runs: median ${q(0.5)} ms, p90 ${q(0.9)} ms, min ${ms[0]!.toFixed(1)} ms, max ${ms.at(-1)!.toFixed(1)} ms\n` +
      `CREATE TABLE + INSERT … SELECT of ${rows} rows × 4 columns in one transaction: ${(ctas / 1000).toFixed(2)} s (read back: ${String(count)} rows)\n`,
  );
} finally {
  conn.closeSync();
  await session.close();
  await endpoint.close();
  duck.closeSync();
  await server?.stop();
  lake.close();
}
