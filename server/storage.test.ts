/**
 * Object-store secrets: one per location prefix, scoped to it, from vended
 * credentials or the configured keys; values are quoted as literals, so a
 * credential cannot inject SQL; the same credentials are not sent twice.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { defaultExtensionDirectory, ensureExtensions } from './extensions.js';
import { secretOptions, secretStatement, StorageSecrets } from './storage.js';

describe('secret options', () => {
  it('vended keys, session token, region and endpoint', () => {
    expect(
      secretOptions(
        { 's3.access-key-id': 'AK', 's3.secret-access-key': 'SK', 's3.session-token': 'ST', 'client.region': 'eu-west-1', 's3.endpoint': 'http://127.0.0.1:8333', 's3.path-style-access': 'true' },
        undefined,
      ),
    ).toEqual({ KEY_ID: 'AK', SECRET: 'SK', SESSION_TOKEN: 'ST', REGION: 'eu-west-1', ENDPOINT: '127.0.0.1:8333', USE_SSL: 'false', URL_STYLE: 'path' });
  });

  it('falls back to the configured keys; nothing without keys', () => {
    expect(secretOptions({}, { accessKeyId: 'A', secretAccessKey: 'B', region: 'us-east-1', pathStyle: false, endpoint: 'https://s3.example' })).toEqual({
      KEY_ID: 'A', SECRET: 'B', REGION: 'us-east-1', ENDPOINT: 's3.example', USE_SSL: 'true', URL_STYLE: 'vhost',
    });
    expect(secretOptions({ 's3.endpoint': 'http://x' }, undefined)).toBeNull();
  });

  it('quotes every value and scopes the secret to the prefix', () => {
    const sql = secretStatement('s3://bucket/sales/orders', { KEY_ID: "a'); DROP SECRET x; --", SECRET: 's', USE_SSL: 'false' });
    expect(sql).toMatch(/^CREATE OR REPLACE SECRET "lg_s3_[0-9a-f]{24}" \(TYPE s3, KEY_ID 'a''\); DROP SECRET x; --', SECRET 's', USE_SSL false, SCOPE 's3:\/\/bucket\/sales\/orders\/'\)$/);
  });
});

describe('StorageSecrets on DuckDB', () => {
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;
  beforeAll(async () => {
    const dir = defaultExtensionDirectory();
    await ensureExtensions(dir, ['httpfs']);
    instance = await DuckDBInstance.create(':memory:', { extension_directory: dir, autoinstall_known_extensions: 'false', autoload_known_extensions: 'false', allow_persistent_secrets: 'false' });
    conn = await instance.connect();
    await conn.run('LOAD httpfs');
  }, 300_000);
  afterAll(() => instance?.closeSync());

  const secrets = async () =>
    (await conn.runAndReadAll("SELECT name, scope[1] AS scope FROM duckdb_secrets() ORDER BY name")).getRowObjects().map((r) => String(r['scope']));

  it('makes one secret per prefix, replaces it when the credentials change, and skips unchanged ones', async () => {
    const s = new StorageSecrets(undefined, []);
    await s.ensure(conn, 's3://b/t1', [{ prefix: 's3://b/t1', config: { 's3.access-key-id': 'A', 's3.secret-access-key': 'S' } }]);
    await s.ensure(conn, 's3://b/t2', [{ prefix: 's3://b/t2', config: { 's3.access-key-id': 'A', 's3.secret-access-key': 'S' } }]);
    await s.ensure(conn, 's3://b/t1', [{ prefix: 's3://b/t1', config: { 's3.access-key-id': 'A2', 's3.secret-access-key': 'S2' } }]);
    expect((await secrets()).sort()).toEqual(['s3://b/t1/', 's3://b/t2/']);
    // local tables need none
    await s.ensure(conn, '/wh/x', []);
    expect(await secrets()).toHaveLength(2);
  });

  it('configured keys cover the object-store warehouse roots', async () => {
    const s = new StorageSecrets({ accessKeyId: 'K', secretAccessKey: 'S', region: 'us-east-1', pathStyle: true }, ['s3://wh/root', '/local']);
    await s.ensure(conn, 's3://wh/root/ns/t', []);
    expect(await secrets()).toContain('s3://wh/root/');
  });
});
