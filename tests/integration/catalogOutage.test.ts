/**
 * REST mode when the catalog fails, through a whole in-process gateway. The
 * catalog here is a small in-test HTTP server answering with the Iceberg REST
 * shapes for the demo table (its real metadata file): enough to take it away.
 * (The whole REST mode runs against Apache Iceberg's REST catalog server behind
 * the Polaris test front once those test servers are in.)
 *
 * - Catalog up: rows (control). Down within the TTL: the cached answer is used.
 *   Down past the TTL: 08006 "the catalog is unavailable", never the old rows.
 *   Up again: rows again.
 * - A catalog that does not answer: statement_timeout cancels the statement
 *   while it is still being planned (57014), well before the client's own timeout.
 * - A catalog answering 401 to a session that cannot renew its login: FATAL 28000,
 *   the connection ends; other sessions are unaffected.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SqlCatalogFile } from '../../catalog/iceberg/sqlCatalog.js';
import { demoWarehouse } from '../../server/demo.js';
import { connect, rawTypes, rejection } from '../support/clients.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { ORDERS } from '../support/target.js';

type Mode = 'up' | 'unauthorized' | 'silent';
let mode: Mode = 'up';
let server: http.Server | null = null;
let port = 0;
let metadataLocation = '';
let gw: InProcessGateway;
const TTL_MS = 1500;

function startCatalog(): Promise<void> {
  server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (mode === 'silent') return; // accepts and never answers
    if (mode === 'unauthorized') return send(401, { error: { message: 'Failed to resolve principal', type: 'NotAuthorizedException', code: 401 } });
    const url = new URL(req.url!, 'http://x');
    const p = url.pathname;
    if (p === '/v1/config') return send(200, { defaults: {}, overrides: { prefix: 'demo' } });
    if (p === '/v1/demo/namespaces') return send(200, { namespaces: url.searchParams.get('parent') ? [] : [['sales']] });
    if (p === '/v1/demo/namespaces/sales') return send(200, { namespace: ['sales'], properties: {} });
    if (p === '/v1/demo/namespaces/sales/tables/orders') {
      // the metadata as stored, untouched (64-bit ids and all)
      return send(200, `{"metadata-location": ${JSON.stringify(metadataLocation)}, "metadata": ${fs.readFileSync(metadataLocation, 'utf8')}}`);
    }
    return send(404, { error: { message: `Not found: ${p}`, type: 'NoSuchTableException', code: 404 } });
  });
  return new Promise((r) => server!.listen(port, '127.0.0.1', () => r()));
}

function stopCatalog(): Promise<void> {
  const s = server!;
  server = null;
  s.closeAllConnections();
  return new Promise((r) => s.close(() => r()));
}

beforeAll(async () => {
  await startCatalog();
  port = (server!.address() as AddressInfo).port;
  gw = await startInProcess((dir) => {
    const data = path.join(dir, 'data');
    const { warehouse } = demoWarehouse(data);
    return {
      catalog: {
        database: 'demo',
        cacheTtlMs: TTL_MS,
        loadConcurrency: 2,
        source: {
          kind: 'rest',
          uri: `http://127.0.0.1:${port}`,
          warehouse: 'demo',
          timeoutMs: 1000,
          retries: 0,
          vendedCredentials: true,
          warehouseRoots: [warehouse],
        },
      },
    };
  });
  const { sqliteFile } = demoWarehouse(path.join(gw.dir, 'data'));
  const cat = new SqlCatalogFile(sqliteFile, 'demo');
  metadataLocation = cat.entry(['sales'], 'orders')!.metadataLocation;
  cat.close();
}, 300_000);

afterAll(async () => {
  await gw?.stop();
  if (server) await stopCatalog();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const target = () => ({ host: '127.0.0.1', port: gw.server.port });
const expected = ORDERS.map((o) => ({ id: String(o.id), region: o.region }));

test('catalog down: cached answers until the TTL, then 08006 and never stale rows; back up: rows', async () => {
  const alice = await connect(target());
  const read = () => alice.query({ text: 'SELECT id, region FROM sales.orders ORDER BY id', types: rawTypes });
  expect((await read()).rows).toEqual(expected);
  await stopCatalog();
  // within the TTL the answer the catalog gave is still the one used
  expect((await read()).rows).toEqual(expected);
  await sleep(TTL_MS + 200);
  for (let i = 0; i < 3; i++) {
    const e = await rejection(read());
    expect([e.code, e.message]).toEqual(['08006', 'the catalog is unavailable']);
  }
  await startCatalog();
  expect((await read()).rows).toEqual(expected);
  await alice.end();
}, 60_000);

test('a catalog that answers 401 to a login that cannot be renewed ends that session with FATAL 28000', async () => {
  const bystander = await connect(target(), { user: 'bob', password: 'bob' });
  expect((await bystander.query({ text: 'SELECT id, region FROM sales.orders ORDER BY id', types: rawTypes })).rows).toEqual(expected);
  await sleep(TTL_MS + 200);
  const erin = await connect(target(), { user: 'erin', password: 'erin' });
  mode = 'unauthorized';
  try {
    const e = await rejection(erin.query('SELECT * FROM sales.orders'));
    expect([e.code, e.severity, e.message]).toEqual(['28000', 'FATAL', 'terminating connection: the catalog no longer accepts the login of user "erin"']);
    await expect(erin.query('SELECT 1')).rejects.toThrow();
  } finally {
    mode = 'up';
  }
  // the bystander's next statement works (its own answers, asked again past the TTL)
  expect((await bystander.query({ text: 'SELECT id, region FROM sales.orders ORDER BY id', types: rawTypes })).rows).toEqual(expected);
  await bystander.end();
}, 60_000);

test('statement_timeout covers planning: a silent catalog is canceled with 57014', async () => {
  await sleep(TTL_MS + 200);
  const carol = await connect(target(), { user: 'carol', password: 'carol' });
  mode = 'silent';
  try {
    await carol.query('SET statement_timeout = 300');
    const t0 = Date.now();
    const e = await rejection(carol.query('SELECT * FROM sales.orders'));
    expect([e.code, e.message]).toEqual(['57014', 'canceling statement due to statement timeout']);
    // the catalog client's own timeout is 1000 ms: the statement ended before it
    expect(Date.now() - t0).toBeLessThan(900);
  } finally {
    mode = 'up';
  }
  await carol.query('SET statement_timeout = 0');
  // The canceled statement stopped waiting; the load it started runs out on the client's own timeout (1 s).
  await sleep(1200);
  expect((await carol.query({ text: 'SELECT id, region FROM sales.orders ORDER BY id', types: rawTypes })).rows).toEqual(expected);
  await carol.end();
}, 60_000);
