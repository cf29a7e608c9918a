/**
 * The Iceberg REST client's writes against a small in-test server with the REST
 * spec's shapes: the caller's token on every call, a 401 renewed once (and only
 * once), a commit never sent twice (not even after a 503), 64-bit ids in a
 * commit body byte for byte, Polaris's error bodies as typed CatalogErrors, and
 * a create pinned to the catalog's default location plus a suffix of its own.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CatalogError } from './api.js';
import { parseIcebergJson } from './json.js';
import { RestCatalog } from './rest.js';

interface Seen {
  method: string;
  path: string;
  auth: string | undefined;
  delegation: string | undefined;
  body: string;
}

let server: http.Server;
let base: string;
let seen: Seen[] = [];
let validToken = 'tok-1';
/** Answers that replace the normal one, in order, per `METHOD path`. */
let scripted = new Map<string, { status: number; body: string }[]>();

const meta = (location: string) =>
  `{"format-version": 2, "table-uuid": "u-1", "location": "${location}", "properties": {}, "current-schema-id": 0,
    "schemas": [{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "type": "long", "required": false}]}],
    "snapshots": [], "refs": {}, "current-snapshot-id": -1}`;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url!.split('?')[0]!;
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method!, path: req.url!, auth: req.headers['authorization'], delegation: req.headers['x-iceberg-access-delegation'] as string | undefined, body });
      const send = (status: number, text: string) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(text);
      };
      const queue = scripted.get(`${req.method} ${path}`);
      if (queue && queue.length > 0) return send(queue[0]!.status, queue.shift()!.body);
      if (req.headers['authorization'] !== `Bearer ${validToken}`) return send(401, JSON.stringify({ error: { message: 'Unable to authenticate', type: 'NotAuthorizedException', code: 401 } }));
      if (path === '/cat/v1/config') return send(200, JSON.stringify({ defaults: {}, overrides: { prefix: 'wh', 'namespace-separator': '%1F' } }));
      if (req.method === 'POST' && path === '/cat/v1/wh/namespaces/a%1Fb/tables') {
        const b = JSON.parse(body) as { location?: string; 'stage-create'?: boolean };
        const location = b.location ?? '/wh/a/b/t';
        return send(200, `{${b['stage-create'] ? '' : `"metadata-location": "${location}/metadata/00000-x.metadata.json", `}"metadata": ${meta(location)}, "config": {}}`);
      }
      if (req.method === 'POST' && path === '/cat/v1/wh/namespaces/a%1Fb/tables/t') {
        return send(200, `{"metadata-location": "/wh/a/b/t/metadata/00001-y.metadata.json", "metadata": ${meta('/wh/a/b/t').replace('"snapshots": []', '"snapshots": [], "last-sequence-number": 3051729675574597004')}}`);
      }
      if (req.method === 'DELETE') return send(204, '');
      if (req.method === 'POST' && path === '/cat/v1/wh/tables/rename') return send(204, '');
      return send(404, JSON.stringify({ error: { message: `no route ${path}`, type: 'NotFoundException', code: 404 } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cat`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

beforeEach(() => {
  seen = [];
  scripted = new Map();
  validToken = 'tok-1';
});

const client = (vendedCredentials = false) => new RestCatalog({ uri: base, warehouse: 'wh', timeoutMs: 5000, retries: 3, retryMinDelayMs: 1, vendedCredentials, storageRoots: [] });
const caller = (token: string, refreshTo?: string) => {
  let current = token;
  let refreshes = 0;
  return {
    user: 'alice',
    token: () => current,
    refresh: async () => {
      refreshes++;
      if (refreshTo === undefined) return false;
      current = refreshTo;
      return true;
    },
    refreshes: () => refreshes,
  };
};

const SNAPSHOT = '3051729675574597004';
const commit = {
  requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null }],
  updates: [{ action: 'add-snapshot', snapshot: { 'snapshot-id': BigInt(SNAPSHOT), 'timestamp-ms': 1, 'manifest-list': '/wh/a/b/t/metadata/snap.avro', summary: { operation: 'append' } } }],
};

test('a commit carries the caller\'s token and its 64-bit ids digit for digit, and answers the metadata losslessly', async () => {
  const c = client();
  const out = await c.commitTable(caller('tok-1'), ['a', 'b'], 't', commit);
  const post = seen.find((s) => s.method === 'POST')!;
  expect(post.auth).toBe('Bearer tok-1');
  expect(post.path).toBe('/cat/v1/wh/namespaces/a%1Fb/tables/t');
  expect(post.body).toContain(`"snapshot-id":${SNAPSHOT}`);
  expect((parseIcebergJson(post.body) as { identifier: unknown }).identifier).toEqual({ namespace: ['a', 'b'], name: 't' });
  expect(out.metadata['last-sequence-number']).toBe(BigInt(SNAPSHOT));
});

test('a 401 is renewed once and the write sent again with the new token; a second 401 is the answer', async () => {
  const c = client();
  await c.dropTable(caller('tok-1'), ['a', 'b'], 't', { purge: true }); // config fetched
  seen = [];
  validToken = 'tok-2';
  const renewed = caller('tok-1', 'tok-2');
  await c.dropTable(renewed, ['a', 'b'], 't', { purge: true });
  expect(renewed.refreshes()).toBe(1);
  expect(seen.filter((s) => s.method === 'DELETE').map((s) => [s.auth, s.path])).toEqual([
    ['Bearer tok-1', '/cat/v1/wh/namespaces/a%1Fb/tables/t?purgeRequested=true'],
    ['Bearer tok-2', '/cat/v1/wh/namespaces/a%1Fb/tables/t?purgeRequested=true'],
  ]);
  validToken = 'tok-3';
  const stale = caller('tok-1', 'tok-2');
  await expect(c.renameTable(stale, { namespace: ['a'], name: 't' }, { namespace: ['a'], name: 'u' })).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });
  expect(stale.refreshes()).toBe(1);
  const cannot = caller('tok-1');
  await expect(c.renameTable(cannot, { namespace: ['a'], name: 't' }, { namespace: ['a'], name: 'u' })).rejects.toMatchObject({ kind: 'unauthorized' });
});

test('a commit is never sent twice: a 503 is reported, not retried', async () => {
  const c = client();
  await c.commitTable(caller('tok-1'), ['a', 'b'], 't', commit); // config fetched
  seen = [];
  scripted.set('POST /cat/v1/wh/namespaces/a%1Fb/tables/t', [{ status: 503, body: '' }]);
  await expect(c.commitTable(caller('tok-1'), ['a', 'b'], 't', commit)).rejects.toMatchObject({ kind: 'unavailable', status: 503 });
  expect(seen.filter((s) => s.method === 'POST')).toHaveLength(1);
});

test("Polaris's error bodies become typed errors: 409 CommitFailed, 403 Forbidden, 404 NoSuchTable", async () => {
  const c = client();
  const path = 'POST /cat/v1/wh/namespaces/a%1Fb/tables/t';
  const err = (status: number, type: string, message: string) => ({ status, body: JSON.stringify({ error: { message, type, code: status } }) });
  scripted.set(path, [
    err(409, 'CommitFailedException', 'Requirement failed: branch main has changed'),
    err(403, 'ForbiddenException', "Principal 'alice' is not authorized for op 'ADD_TABLE_SNAPSHOT'"),
    err(404, 'NoSuchTableException', 'Table does not exist: a.b.t'),
  ]);
  const failures: CatalogError[] = [];
  for (let i = 0; i < 3; i++) failures.push(await c.commitTable(caller('tok-1'), ['a', 'b'], 't', commit).then(() => { throw new Error('no error'); }, (e: CatalogError) => e));
  expect(failures.map((e) => [e.kind, e.status, e.type])).toEqual([
    ['conflict', 409, 'CommitFailedException'],
    ['forbidden', 403, 'ForbiddenException'],
    ['not-found', 404, 'NoSuchTableException'],
  ]);
});

test('a create without a location is pinned to the default location plus a suffix: a staged probe first, then the create', async () => {
  const c = client(true);
  const created = await c.createTable(caller('tok-1'), ['a', 'b'], { name: 't', schema: { type: 'struct', fields: [] } });
  const posts = seen.filter((s) => s.method === 'POST').map((s) => ({ ...JSON.parse(s.body), delegation: s.delegation }));
  expect(posts).toHaveLength(2);
  expect(posts[0]).toMatchObject({ name: 't', 'stage-create': true, delegation: undefined });
  expect(posts[0].location).toBeUndefined();
  expect(posts[1]).toMatchObject({ name: 't', 'stage-create': false, delegation: 'vended-credentials' });
  expect(posts[1].location).toMatch(/^\/wh\/a\/b\/t-[0-9a-f]{12}$/);
  expect(created.metadata['location']).toBe(posts[1].location);
  expect(created.metadataLocation).toBe(`${posts[1].location}/metadata/00000-x.metadata.json`);
  // A second create of the same name gets another folder.
  seen = [];
  await c.createTable(caller('tok-1'), ['a', 'b'], { name: 't', schema: { type: 'struct', fields: [] }, stageCreate: true });
  const again = JSON.parse(seen.filter((s) => s.method === 'POST')[1]!.body) as { location: string };
  expect(again.location).not.toBe(posts[1].location);
});
