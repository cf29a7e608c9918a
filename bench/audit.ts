/**
 * What the audit trail costs a query, side by side in one run: the same
 * prepared point query on the demo table (node-postgres, one connection per
 * gateway) through in-process demo gateways with the audit trail off, writing
 * JSON lines to a file, and writing to a file plus an HTTP sink that never
 * answers. Rounds alternate between the gateways so machine load hits all
 * alike. Not a test: figures and ratios to "off", written to
 * bench/out/<time>-audit/.
 *
 *   npx tsx bench/audit.ts [--queries 500] [--rounds 6]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../server/config.js';
import { startInProcess, type InProcessGateway } from '../tests/support/inProcess.js';
import { arg, percentile } from './lib/util.js';

const queries = Number(arg('queries', '500'));
const rounds = Number(arg('rounds', '6'));
const dir = mkdtempSync(join(tmpdir(), 'lakegate-bench-audit-'));
const outDir = join('bench', 'out', `${new Date().toISOString().replace(/[:.]/g, '-')}-audit`);
mkdirSync(outDir, { recursive: true });
const lines: string[] = [];
const say = (s: string) => {
  lines.push(s);
  process.stdout.write(`${s}\n`);
};

const hanging = createServer(() => undefined);
await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', () => r()));
const hangUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/audit`;

const setups: { name: string; audit: Partial<Config>['audit'] }[] = [
  { name: 'off', audit: { destination: 'off' } },
  { name: 'file', audit: { destination: 'file', file: join(dir, 'file.jsonl') } },
  {
    name: 'file + hanging http',
    audit: { destination: 'file', file: join(dir, 'http.jsonl'), http: { url: hangUrl, batchSize: 100, flushMs: 1000, maxQueue: 10_000, timeoutMs: 5000 } },
  },
];

const gateways: { name: string; gw: InProcessGateway; client: pg.Client; ms: number[] }[] = [];
for (const s of setups) {
  const gw = await startInProcess(() => ({ audit: s.audit } as Partial<Config>));
  const client = new pg.Client({ host: '127.0.0.1', port: gw.server.port, user: 'alice', password: 'alice', database: 'demo' });
  await client.connect();
  gateways.push({ name: s.name, gw, client, ms: [] });
}

const query = { name: 'point', text: 'select id, ssn, amount from sales.orders where id = $1' };
for (const g of gateways) for (let i = 0; i < 50; i++) await g.client.query({ ...query, values: [1 + (i % 2)] }); // warm
for (let r = 0; r < rounds; r++) {
  for (const g of gateways) {
    for (let i = 0; i < queries; i++) {
      const t0 = performance.now();
      await g.client.query({ ...query, values: [1 + (i % 2)] });
      g.ms.push(performance.now() - t0);
    }
  }
}

say(`# audit trail cost: ${rounds} rounds × ${queries} prepared point queries per gateway, node-postgres, in-process demo`);
say('| audit | p50 ms | p95 ms | p99 ms | p50 ratio to off |');
say('|---|---|---|---|---|');
const p50off = percentile([...gateways[0]!.ms].sort((a, b) => a - b), 50);
for (const g of gateways) {
  const s = [...g.ms].sort((a, b) => a - b);
  say(`| ${g.name} | ${percentile(s, 50).toFixed(3)} | ${percentile(s, 95).toFixed(3)} | ${percentile(s, 99).toFixed(3)} | ${(percentile(s, 50) / p50off).toFixed(2)} |`);
}
for (const g of gateways) await g.client.end();
for (const g of gateways) await g.gw.stop();
hanging.closeAllConnections();
hanging.close();
for (const f of ['file.jsonl', 'http.jsonl']) {
  const n = readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l !== '').length;
  say(`${f}: ${n} events written`);
}
writeFileSync(join(outDir, 'report.md'), `${lines.join('\n')}\n`);
rmSync(dir, { recursive: true, force: true });
