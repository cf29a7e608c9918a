/**
 * The Iceberg REST client against a small in-test HTTP server that answers
 * with the REST spec's shapes (the Polaris test front in tests/fixtures is
 * the end-to-end counterpart): the user's token on every call, /v1/config
 * with `warehouse` and the prefix it returns, multi-level namespaces joined
 * with 0x1F, pagination, the delegation header, 64-bit snapshot ids kept,
 * retries on 5xx and network errors only, and a 401 renewed once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadParser } from '../../sql/parse.js';
import { CatalogService, CatalogLoginError } from '../userCatalog.js';
import { CatalogError } from './api.js';
import { RestCatalog } from './rest.js';

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  delegation: string | undefined;
}

const SNAPSHOT = '3051729675574597004';
const table = (location: string) =>
  `{"metadata-location": "${location}/metadata/00001.metadata.json", "metadata": {"format-version": 2, "table-uuid": "u",
   "location": "${location}", "properties": {}, "current-schema-id": 0,
   "schemas": [{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "type": "long", "required": true}]}],
   "current-snapshot-id": ${SNAPSHOT}, "snapshots": [{"snapshot-id": ${SNAPSHOT}, "timestamp-ms": 1700000000000,
   "sequence-number": 1, "manifest-list": "${location}/metadata/snap.avro", "summary": {"operation": "append"}}],
   "refs": {"main": {"snapshot-id": ${SNAPSHOT}, "type": "branch"}}},
   "storage-credentials": [{"prefix": "s3://bucket/sales", "config": {"s3.access-key-id": "AK", "s3.secret-access-key": "SK"}}]}`;

const forbidden = (op: string, user = 'alice') =>
  JSON.stringify({ error: { message: `Principal '${user}' is not authorized for op '${op}'`, type: 'ForbiddenException', code: 403 } });

let server: http.Server;
let base: string;
let seen: Seen[] = [];
/** Answers that replace the normal one, in order, per path. */
let scripted = new Map<string, { status: number; body: string }[]>();
let validToken = 'tok-1';

beforeAll(async () => {
  await loadParser();
  server = http.createServer((req, res) => {
    const url = req.url!;
    seen.push({ method: req.method!, url, auth: req.headers['authorization'], delegation: req.headers['x-iceberg-access-delegation'] as string | undefined });
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    const path = url.split('?')[0]!;
    const queue = scripted.get(path);
    if (queue && queue.length > 0) return send(queue[0]!.status, (queue.shift()!).body);
    if (req.headers['authorization'] !== `Bearer ${validToken}`) {
      return send(401, JSON.stringify({ error: { message: 'Failed to resolve principal', type: 'NotAuthorizedException', code: 401 } }));
    }
    const q = new URL(url, 'http://x').searchParams;
    if (path === '/api/catalog/v1/config') {
      if (q.get('warehouse') !== 'wh') return send(400, JSON.stringify({ error: { message: 'Please specify a warehouse', type: 'BadRequestException', code: 400 } }));
      return send(200, JSON.stringify({ defaults: {}, overrides: { prefix: 'wh', 'namespace-separator': '%1F' } }));
    }
    if (path === '/api/catalog/v1/wh/namespaces') {
      const parent = q.get('parent');
      if (parent === null) {
        if (q.get('pageToken') === 'p2') return send(200, JSON.stringify({ namespaces: [['sales']], 'next-page-token': null }));
        return send(200, JSON.stringify({ namespaces: [['acct']], 'next-page-token': 'p2' }));
      }
      if (parent === 'acct') return send(200, JSON.stringify({ namespaces: [['acct', 'tax']] }));
      return send(200, JSON.stringify({ namespaces: [] }));
    }
    if (path === '/api/catalog/v1/wh/namespaces/acct%1Ftax') return send(200, JSON.stringify({ namespace: ['acct', 'tax'], properties: {} }));
    if (path === '/api/catalog/v1/wh/namespaces/acct' || path === '/api/catalog/v1/wh/namespaces/sales') {
      return send(200, JSON.stringify({ namespace: [path.split('/').pop()], properties: { owner: 'x' } }));
    }
    if (path === '/api/catalog/v1/wh/namespaces/acct%1Ftax/tables/ledger') return send(200, table('/wh/acct/tax/ledger'));
    if (path === '/api/catalog/v1/wh/namespaces/sales/tables/secret') return send(403, forbidden('LOAD_TABLE_WITH_READ_DELEGATION'));
    if (path === '/api/catalog/v1/wh/namespaces/sales/views/secret') return send(403, forbidden('LOAD_VIEW'));
    return send(404, JSON.stringify({ error: { message: `Table does not exist: ${path}`, type: 'NoSuchTableException', code: 404 } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/catalog`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

beforeEach(() => {
  seen = [];
  scripted = new Map();
  validToken = 'tok-1';
});

const client = (over: Partial<ConstructorParameters<typeof RestCatalog>[0]> = {}) =>
  new RestCatalog({ uri: base, warehouse: 'wh', timeoutMs: 2000, retries: 2, vendedCredentials: true, storageRoots: [], retryMinDelayMs: 10, ...over });

const alice = { user: 'alice', token: () => 'tok-1' };

describe('Iceberg REST client', () => {
  it('sends the token on every call; config with warehouse; multi-level namespaces with 0x1F and pagination', async () => {
    const c = client();
    expect(await c.listNamespaces(alice, [])).toEqual([['acct'], ['sales']]);
    expect(await c.listNamespaces(alice, ['acct'])).toEqual([['acct', 'tax']]);
    expect(await c.loadNamespace(alice, ['acct', 'tax'])).toEqual({});
    expect(seen.map((s) => s.url)).toEqual([
      '/api/catalog/v1/config?warehouse=wh',
      '/api/catalog/v1/wh/namespaces',
      '/api/catalog/v1/wh/namespaces?pageToken=p2',
      '/api/catalog/v1/wh/namespaces?parent=acct',
      '/api/catalog/v1/wh/namespaces/acct%1Ftax',
    ]);
    expect(seen.every((s) => s.auth === 'Bearer tok-1' && s.method === 'GET')).toBe(true);
  });

  it('loads a table with the delegation header, keeping its 64-bit snapshot id and the vended credentials', async () => {
    const t = await client().loadTable(alice, ['acct', 'tax'], 'ledger');
    expect(seen.at(-1)).toMatchObject({ url: '/api/catalog/v1/wh/namespaces/acct%1Ftax/tables/ledger', delegation: 'vended-credentials' });
    expect(t.metadata['current-snapshot-id']).toBe(BigInt(SNAPSHOT));
    expect(String(t.metadata.snapshots[0]!['snapshot-id'])).toBe(SNAPSHOT);
    // control: JSON.parse would have rounded it to another id
    expect(String(BigInt(JSON.parse(`{"x": ${SNAPSHOT}}`).x))).not.toBe(SNAPSHOT);
    expect(t.credentials).toEqual([{ prefix: 's3://bucket/sales', config: { 's3.access-key-id': 'AK', 's3.secret-access-key': 'SK' } }]);
    expect(t.metadataLocation).toBe('/wh/acct/tax/ledger/metadata/00001.metadata.json');
  });

  it('403 and 404 are answers: never retried, reported with their kind', async () => {
    const c = client();
    await c.listNamespaces(alice, []); // config fetched
    seen = [];
    await expect(c.loadTable(alice, ['sales'], 'secret')).rejects.toMatchObject({
      kind: 'forbidden',
      status: 403,
      message: "ForbiddenException: Principal 'alice' is not authorized for op 'LOAD_TABLE_WITH_READ_DELEGATION'",
    });
    await expect(c.loadTable(alice, ['sales'], 'nosuch')).rejects.toMatchObject({ kind: 'not-found', status: 404 });
    expect(seen).toHaveLength(2);
  });

  it('retries a 5xx with backoff, and gives up as unavailable', async () => {
    const c = client();
    await c.listNamespaces(alice, []);
    scripted.set('/api/catalog/v1/wh/namespaces/acct%1Ftax/tables/ledger', [
      { status: 503, body: 'busy' },
      { status: 502, body: '' },
    ]);
    seen = [];
    await expect(c.loadTable(alice, ['acct', 'tax'], 'ledger')).resolves.toMatchObject({ metadataLocation: expect.any(String) });
    expect(seen).toHaveLength(3);
    scripted.set('/api/catalog/v1/wh/namespaces/sales', [1, 2, 3].map(() => ({ status: 500, body: '{}' })));
    seen = [];
    await expect(c.loadNamespace(alice, ['sales'])).rejects.toMatchObject({ kind: 'unavailable' });
    expect(seen).toHaveLength(3);
  });

  it('a catalog that is down or silent is unavailable, within the timeout', async () => {
    const down = client({ uri: 'http://127.0.0.1:9/api/catalog', retries: 1 });
    await expect(down.listNamespaces(alice, [])).rejects.toBeInstanceOf(CatalogError);
    const silent = http.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const t0 = Date.now();
    const slow = client({ uri: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 300, retries: 0 });
    await expect(slow.listNamespaces(alice, [])).rejects.toMatchObject({ kind: 'unavailable' });
    expect(Date.now() - t0).toBeLessThan(3000);
    silent.closeAllConnections();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it('a 401 renews the token once and repeats the call; a second 401 ends the login', async () => {
    const service = new CatalogService(client(), { ttlMs: 60_000, loadConcurrency: 2 });
    let token = 'old';
    let renewals = 0;
    const caller = {
      user: 'alice',
      token: () => token,
      refresh: async () => {
        renewals++;
        token = 'tok-1';
        return true;
      },
    };
    expect((await service.forUser('alice').namespaces(caller)).value).toEqual([['acct'], ['acct', 'tax'], ['sales']]);
    expect(renewals).toBe(1);
    expect(seen[0]!.auth).toBe('Bearer old');
    expect(seen[1]!.auth).toBe('Bearer tok-1');
    // the catalog keeps refusing even the renewed token
    validToken = 'something-else';
    const again = new CatalogService(client(), { ttlMs: 60_000, loadConcurrency: 2 });
    await expect(again.forUser('bob').namespaces({ ...caller, user: 'bob' })).rejects.toBeInstanceOf(CatalogLoginError);
    // a credential that cannot be renewed ends the login at once
    const noRenew = new CatalogService(client(), { ttlMs: 60_000, loadConcurrency: 2 });
    await expect(noRenew.forUser('carol').namespaces({ user: 'carol', token: () => 'x', refresh: async () => false })).rejects.toBeInstanceOf(CatalogLoginError);
  });

  it('resolution hides what the catalog refuses: a denied table and a missing one look the same', async () => {
    const service = new CatalogService(client(), { ttlMs: 60_000, loadConcurrency: 2 });
    const u = service.forUser('alice');
    const found = (await u.lookup(alice, 'acct.tax', 'ledger')).value;
    expect(found?.kind).toBe('table');
    expect((await u.lookup(alice, 'sales', 'secret')).value).toBeNull();
    expect((await u.lookup(alice, 'sales', 'nosuch')).value).toBeNull();
  });
});
