/**
 * Access-control statements in `lakegate demo` (the built CLI, its own data
 * dir): the demo's catalog-gate policies are copied into DATA_DIR and GRANT
 * writes that copy, never the package's demo/polaris. carol (sqe_admin) denies
 * alice the demo table and revokes the deny; alice's open session follows at
 * its next statement. dave, who has no role, reads the table after carol's
 * GRANT (the demo's data gate lets everyone select sales and masks ssn for a
 * user without a role with Hive's MASK) and no longer after her REVOKE.
 */
import fs from 'node:fs';
import path from 'node:path';
import { connect, rawTypes, rejection } from '../support/clients.js';
import { REPO_ROOT, startLakegate, type Lakegate } from '../support/lakegate.js';
import { ORDERS } from '../support/target.js';

let lg: Lakegate;
const packaged = path.join(REPO_ROOT, 'demo', 'polaris', 'polaris.json');
let packagedBefore: string;

beforeAll(async () => {
  packagedBefore = fs.readFileSync(packaged, 'utf8');
  lg = await startLakegate();
}, 300_000);

afterAll(async () => {
  await lg?.stop();
});

test('DENY and REVOKE as carol; alice follows; the package\'s policy file is untouched', async () => {
  const carol = await connect(lg, { user: 'carol', password: 'carol' });
  const alice = await connect(lg, { user: 'alice', password: 'alice' });
  const SQL = 'SELECT id, amount, region FROM sales.orders ORDER BY id';
  const expected = ORDERS.map((o) => ({ id: String(o.id), amount: o.amount, region: o.region }));
  expect((await alice.query({ text: SQL, types: rawTypes })).rows).toEqual(expected);
  expect((await carol.query('DENY SELECT ON TABLE demo.sales.orders TO USER alice')).command).toBe('DENY');
  const e = await rejection(alice.query(SQL));
  expect([e.code, e.message]).toEqual(['42P01', 'relation "sales.orders" does not exist']);
  const copy = JSON.parse(fs.readFileSync(path.join(lg.dataDir, 'policies', 'polaris', 'polaris.json'), 'utf8'));
  expect(JSON.stringify(copy.policies)).toContain('chm:USER:alice:DENY_SELECT');
  expect(fs.readFileSync(packaged, 'utf8')).toBe(packagedBefore);
  await carol.query('REVOKE SELECT ON TABLE demo.sales.orders FROM USER alice');
  expect((await alice.query({ text: SQL, types: rawTypes })).rows).toEqual(expected);
  await Promise.all([carol.end(), alice.end()]);
});

/** Hive's MASK, written from its definition: upper case → X, lower case → x, digit → n, the rest kept. */
function hiveMask(s: string): string {
  return s.replace(/[A-Z]/g, 'X').replace(/[a-z]/g, 'x').replace(/[0-9]/g, 'n');
}

test("GRANT SELECT ON sales.orders TO dave as the README types it: dave reads, ssn masked; REVOKE: 42P01 again", async () => {
  const carol = await connect(lg, { user: 'carol', password: 'carol' });
  const dave = await connect(lg, { user: 'dave', password: 'dave' });
  const SQL = 'SELECT id, ssn, amount, region FROM sales.orders ORDER BY id';
  const missing = ['42P01', 'relation "sales.orders" does not exist'];
  const before = await rejection(dave.query(SQL));
  expect([before.code, before.message]).toEqual(missing);
  expect((await carol.query('GRANT SELECT ON sales.orders TO dave')).command).toBe('GRANT');
  const expected = ORDERS.map((o) => ({ id: String(o.id), ssn: hiveMask(o.ssn), amount: o.amount, region: o.region }));
  expect((await dave.query({ text: SQL, types: rawTypes })).rows).toEqual(expected);
  // the stored value matches nothing: predicates see the masked value
  expect((await dave.query("SELECT count(*)::int AS n FROM sales.orders WHERE ssn = '111-11-1111'")).rows).toEqual([{ n: 0 }]);
  expect((await carol.query('REVOKE SELECT ON sales.orders FROM dave')).command).toBe('REVOKE');
  const after = await rejection(dave.query(SQL));
  expect([after.code, after.message]).toEqual(missing);
  await Promise.all([carol.end(), dave.end()]);
});

test('schema analytics: there from the first start, empty; analysts and engineers see it, dave does not', async () => {
  const schemas = async (user: string) => {
    const c = await connect(lg, { user, password: user });
    try {
      return {
        namespace: (await c.query("SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname IN ('analytics', 'sales') ORDER BY 1")).rows.map((r) => r.nspname as string),
        relations: (await c.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'analytics'")).rows[0].n as number,
      };
    } finally {
      await c.end();
    }
  };
  expect(await schemas('alice')).toEqual({ namespace: ['analytics', 'sales'], relations: 0 });
  expect(await schemas('bob')).toEqual({ namespace: ['analytics', 'sales'], relations: 0 });
  // (sales may be there for dave: an earlier test's GRANT left its traversal, as REVOKE does)
  expect((await schemas('dave')).namespace).not.toContain('analytics');
});

test("the demo's GRANT of a write privilege says the data gate must allow it too (projectWrites is off)", async () => {
  const carol = await connect(lg, { user: 'carol', password: 'carol' });
  const notices: string[] = [];
  carol.on('notice', (n) => notices.push(n.message ?? ''));
  expect((await carol.query('GRANT INSERT ON analytics.nothing_yet TO dave').catch((e: Error) => e.message))).toBe('relation "analytics.nothing_yet" does not exist');
  expect((await carol.query('GRANT INSERT ON ALL TABLES IN SCHEMA analytics TO dave')).command).toBe('GRANT');
  expect(notices).toEqual([
    "INSERT was written to the catalog gate only: the data gate's policies (lakehouse) must also allow update on analytics.* for the write to pass",
  ]);
  await carol.query('REVOKE INSERT ON ALL TABLES IN SCHEMA analytics FROM dave');
  await carol.end();
});
