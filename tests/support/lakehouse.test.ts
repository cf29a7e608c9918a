/**
 * startLakehouse's own path (tables written straight to the REST server, the front in
 * front of it) without a Keycloak: the front refuses an unauthenticated call, the
 * privileged direct reference reads what was written. The path through the front with
 * real tokens is tests/fixtures/polaris/server.test.ts.
 */
import { referenceScan } from './icebergTables.js';
import { lakehouseForSuite } from './lakehouse.js';

// No token is ever verified here: an issuer nobody listens on.
const lh = lakehouseForSuite(() => ({ oidc: { issuer: 'http://127.0.0.1:9/realms/none' }, principals: [], only: ['lake.customers'] }));

test('tables written straight to the REST server; the front guards them; the direct reference reads them', async () => {
  expect(Object.keys(lh().manifest.tables)).toEqual(['lake.customers']);
  expect(lh().s3Manifest).toBeNull();
  const denied = await fetch(`${lh().front.url}/v1/lake/namespaces/lake/tables/customers`);
  expect(denied.status).toBe(401);
  const direct = await fetch(`${lh().rest.url}/v1/namespaces/lake/tables/customers`);
  expect(((await direct.json()) as { 'metadata-location': string })['metadata-location']).toBe(lh().manifest.tables['lake.customers']!.metadataLocation);
  expect((await referenceScan(lh().direct('lake'), 'lake.customers')).rows).toHaveLength(4);
  expect(lh().asUser('lake', 't')).toEqual({ kind: 'rest', uri: lh().front.url, warehouse: 'lake', token: 't' });
});
