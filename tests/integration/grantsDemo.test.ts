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
