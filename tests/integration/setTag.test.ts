/**
 * SET TAG / UNSET TAG in embedded mode: the tag is committed into the table's
 * `sqe.column-tags` property (new Iceberg metadata that pyiceberg reads back)
 * and, with projectTags, into the data gate's tag store; a tag mask policy
 * (PII → MASK_NULL for everyone but sqe_admin) masks the column in alice's
 * open session at her next statement. A projection that fails rolls the
 * property back and fails the statement.
 *
 * Controls: alice reads the raw column before the tag and after UNSET TAG;
 * carol (MASK_NONE) reads it raw throughout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { loadParser } from '../../sql/parse.js';
import { connect, rejection, run } from '../support/clients.js';
import { embeddedConfig, polarisAllow, PYTHON, textRows, writeCatalogGate, writeDataGate, writeWarehouse, PII_HIDDEN_TAG_POLICIES, type Described } from '../support/grantsLake.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

let root: string;
let rangerDir: string;
let tables: Record<string, Described>;
let gw: InProcessGateway;

beforeAll(async () => {
  await loadParser();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-settag-'));
  tables = await writeWarehouse(root);
  const polarisDir = writeCatalogGate(root, [
    polarisAllow(1, { root: ['*'], catalog: ['lake'] }, ['namespace-list'], ['analyst']),
    polarisAllow(2, { root: ['*'], catalog: ['lake'], namespace: ['sales'] }, ['namespace-list', 'namespace-properties-read', 'table-list'], ['analyst']),
    polarisAllow(3, { root: ['*'], catalog: ['lake'], namespace: ['sales'], table: ['*'] }, ['table-list', 'table-properties-read', 'table-data-read'], ['analyst']),
  ]);
  rangerDir = writeDataGate(root, PII_HIDDEN_TAG_POLICIES);
  gw = await startInProcess(() => embeddedConfig(root, { kind: 'local', path: polarisDir, serviceName: 'polaris' }, { grantAuthority: 'admin-role', projectTags: true }));
}, 300_000);

afterAll(async () => {
  await gw?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const as = (user: string) => connect({ host: '127.0.0.1', port: gw.server.port }, { user, password: user, database: 'lake' });
const rows = textRows;
const ORDERS = 'SELECT id, region, amount FROM sales.orders ORDER BY id';
const raw = () => tables['sales.orders']!.scans[tables['sales.orders']!.current]!;
const regionHidden = () => raw().map((r) => ({ ...r, region: null }));

/** What pyiceberg reads from the catalog now: the table's properties and its row count. */
async function pyicebergView(): Promise<{ properties: Record<string, string>; rows: number }> {
  const script = `
import json, sys
from pyiceberg.catalog.sql import SqlCatalog
cat = SqlCatalog("lake", uri="sqlite:///${path.join(root, 'catalog.db')}", warehouse="file://${path.join(root, 'warehouse')}")
t = cat.load_table("sales.orders")
print(json.dumps({"properties": dict(t.properties), "rows": len(t.scan().to_arrow())}))
`;
  const r = await run(PYTHON, ['-c', script], { timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

let alice: pg.Client;
let carol: pg.Client;
beforeAll(async () => {
  alice = await as('alice');
  carol = await as('carol');
});
afterAll(async () => {
  await alice?.end();
  await carol?.end();
});

describe('SET TAG', () => {
  it('control: alice reads region as stored', async () => {
    expect(raw().some((r) => r['region'] !== null)).toBe(true);
    expect(await rows(alice, ORDERS)).toEqual(raw());
  });

  it('SET TAG masks the column in alice\'s open session at once; the property is a real Iceberg commit; the tag store has it', async () => {
    const r = await carol.query('SET TAG PII ON COLUMN sales.orders.region');
    expect(r.command).toBe('SET'); // node-postgres keeps the first word of the tag "SET TAG"
    expect(await rows(alice, ORDERS)).toEqual(regionHidden());
    expect(await rows(carol, ORDERS)).toEqual(raw());
    const seen = await pyicebergView();
    expect(JSON.parse(seen.properties['sqe.column-tags']!)).toEqual({ region: ['PII'] });
    expect(seen.rows).toBe(raw().length);
    const tagFile = JSON.parse(fs.readFileSync(path.join(rangerDir, 'lakehouse_tag.json'), 'utf8'));
    const resource = tagFile.serviceResources.find((x: { resourceElements: Record<string, { values: string[] }> }) => x.resourceElements['column']?.values[0] === 'region');
    expect(resource.resourceElements).toEqual({ database: { values: ['sales'] }, table: { values: ['orders'] }, column: { values: ['region'] } });
    expect(tagFile.resourceToTagIds[String(resource.id)].map((id: number) => tagFile.tags[String(id)].type)).toEqual(['PII']);
  });

  it('UNSET TAG: alice reads region again', async () => {
    await carol.query('UNSET TAG PII ON COLUMN lake.sales.orders.region');
    expect(await rows(alice, ORDERS)).toEqual(raw());
    expect((await pyicebergView()).properties['sqe.column-tags']).toBeUndefined();
  });

  it('a projection that fails rolls the property back and fails the statement', async () => {
    const tagFile = path.join(rangerDir, 'lakehouse_tag.json');
    fs.rmSync(tagFile);
    fs.mkdirSync(tagFile); // the tag store cannot be read or written
    try {
      const e = await rejection(carol.query('SET TAG PII ON COLUMN sales.orders.region'));
      expect([e.code, e.message]).toEqual(['58030', `SET TAG failed and was rolled back: the tag could not be written to Ranger's tag store (the tag file ${tagFile})`]);
      expect(await rows(alice, ORDERS)).toEqual(raw());
      expect((await pyicebergView()).properties['sqe.column-tags']).toBeUndefined();
    } finally {
      fs.rmdirSync(tagFile);
    }
  });

  it('refusals: not an administrator, an unknown column, a missing table', async () => {
    expect((await rejection(alice.query('SET TAG PII ON COLUMN sales.orders.region'))).code).toBe('42501');
    const e = await rejection(carol.query('SET TAG PII ON COLUMN sales.orders.nosuch'));
    expect([e.code, e.message]).toEqual(['42703', 'column "nosuch" of relation "sales.orders" does not exist']);
    expect((await rejection(carol.query('SET TAG PII ON COLUMN sales.nosuch.region'))).code).toBe('42P01');
    expect(await rows(alice, ORDERS)).toEqual(raw());
  });
});

describe("sqe's tag statements: ALTER TABLE … ALTER COLUMN … SET / UNSET TAG, SHOW TAGS ON", () => {
  /** SHOW TAGS' rows as sqe gives them, computed from the property pyiceberg reads: (column, tag) ordered. */
  const tagRows = (property: string | undefined) =>
    Object.entries(property === undefined ? {} : (JSON.parse(property) as Record<string, string[]>))
      .flatMap(([column, tags]) => tags.map((tag) => ({ column, tag })))
      .sort((a, b) => (a.column + '\u0000' + a.tag < b.column + '\u0000' + b.tag ? -1 : 1));

  it('control: nothing is tagged; alice reads region; SHOW TAGS answers no rows, with its two columns', async () => {
    expect((await pyicebergView()).properties['sqe.column-tags']).toBeUndefined();
    expect(await rows(alice, ORDERS)).toEqual(raw());
    const shown = await alice.query('SHOW TAGS ON lake.sales.orders');
    expect([shown.fields.map((f) => [f.name, f.dataTypeID]), shown.rows]).toEqual([[['column', 25], ['tag', 25]], []]);
  });

  it("ALTER TABLE … SET TAG name = 'value' is SET TAG: the property committed, the tag store written, alice's column masked", async () => {
    const r = await carol.query("ALTER TABLE lake.sales.orders ALTER COLUMN region SET TAG pii = 'true'");
    expect(r.command).toBe('ALTER'); // node-postgres keeps the first word of the tag "ALTER TABLE"
    expect(await rows(alice, ORDERS)).toEqual(regionHidden());
    expect(await rows(carol, ORDERS)).toEqual(raw());
    const seen = await pyicebergView();
    expect(JSON.parse(seen.properties['sqe.column-tags']!)).toEqual({ region: ['PII'] });
    const tagFile = JSON.parse(fs.readFileSync(path.join(rangerDir, 'lakehouse_tag.json'), 'utf8'));
    const resource = tagFile.serviceResources.find((x: { resourceElements: Record<string, { values: string[] }> }) => x.resourceElements['column']?.values[0] === 'region');
    expect(tagFile.resourceToTagIds[String(resource.id)].map((id: number) => tagFile.tags[String(id)].type)).toEqual(['PII']);
  });

  it('SHOW TAGS ON: one row per column and tag, for whoever may load the table; a table dave may not load is missing, as for SELECT', async () => {
    const expected = tagRows((await pyicebergView()).properties['sqe.column-tags']);
    expect(expected).toEqual([{ column: 'region', tag: 'PII' }]);
    expect(await rows(alice, 'SHOW TAGS ON lake.sales.orders')).toEqual(expected);
    expect(await rows(carol, 'show tags on sales.orders')).toEqual(expected);
    const dave = await as('dave');
    try {
      const select = await rejection(dave.query('SELECT * FROM sales.orders'));
      const show = await rejection(dave.query('SHOW TAGS ON sales.orders'));
      expect([show.code, show.message]).toEqual([select.code, select.message]);
      expect([show.code, show.message]).toEqual(['42P01', 'relation "sales.orders" does not exist']);
    } finally {
      await dave.end();
    }
  });

  it("the same checks as SET TAG: an administrator's statement, a column the table has", async () => {
    const e = await rejection(alice.query('ALTER TABLE sales.orders ALTER COLUMN region UNSET TAG PII'));
    expect(e.code).toBe('42501');
    const c = await rejection(carol.query('ALTER TABLE sales.orders ALTER COLUMN nosuch SET TAG PII'));
    expect([c.code, c.message]).toEqual(['42703', 'column "nosuch" of relation "sales.orders" does not exist']);
    expect(await rows(alice, ORDERS)).toEqual(regionHidden());
  });

  it('ALTER TABLE … UNSET TAG: alice reads region again; SHOW TAGS is empty', async () => {
    expect((await carol.query('ALTER TABLE sales.orders ALTER COLUMN region UNSET TAG PII')).command).toBe('ALTER');
    expect(await rows(alice, ORDERS)).toEqual(raw());
    expect((await pyicebergView()).properties['sqe.column-tags']).toBeUndefined();
    expect(await rows(alice, 'SHOW TAGS ON sales.orders')).toEqual([]);
  });
});
