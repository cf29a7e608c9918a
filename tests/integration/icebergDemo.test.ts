/**
 * `lakegate demo` serves a real Iceberg table: DATA_DIR holds the warehouse
 * (a *.metadata.json under it) and a SQL catalog that pyiceberg's own
 * SqlCatalog opens and scans; what carol reads through lakegate (the demo's
 * data gate masks nothing for her role sqe_admin) equals that scan and the
 * demo rows written out here. dave, whom the demo's
 * polaris-service policies grant nothing, gets 42P01 like for a missing table.
 */
import fs from 'node:fs';
import path from 'node:path';
import { connect, rawTypes, rejection, run } from '../support/clients.js';
import { REPO_ROOT, startLakegate, type Lakegate } from '../support/lakegate.js';
import { ORDERS } from '../support/target.js';

const PYTHON = path.join(REPO_ROOT, '.venv', 'bin', 'python');
let lg: Lakegate;

beforeAll(async () => {
  lg = await startLakegate();
}, 300_000);

afterAll(async () => {
  await lg?.stop();
});

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

test('DATA_DIR holds an Iceberg table: metadata JSON, manifests, Parquet data', () => {
  const all = files(lg.dataDir);
  expect(all.some((f) => /warehouse\/sales\/orders\/metadata\/\d{5}-[0-9a-f-]+\.metadata\.json$/.test(f))).toBe(true);
  expect(all.some((f) => /\/metadata\/snap-\d+-0-[0-9a-f-]+\.avro$/.test(f))).toBe(true);
  expect(all.some((f) => /\/data\/.*\.parquet$/.test(f))).toBe(true);
  expect(all).toContain(path.join(lg.dataDir, 'catalog.db'));
});

test('pyiceberg reads the demo table; carol reads the same rows through lakegate', async () => {
  if (!fs.existsSync(PYTHON)) throw new Error('.venv missing: run scripts/setup-python.sh');
  const script = `
import json, sys
from pyiceberg.catalog.sql import SqlCatalog
d = sys.argv[1]
cat = SqlCatalog("demo", uri=f"sqlite:///{d}/catalog.db", warehouse=f"file://{d}/warehouse")
t = cat.load_table("sales.orders")
rows = sorted(t.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
print(json.dumps({"rows": [{k: str(v) for k, v in r.items()} for r in rows],
                  "fields": [[f.field_id, f.name, str(f.field_type)] for f in t.schema().fields]}))`;
  const r = await run(PYTHON, ['-c', script, lg.dataDir], { timeoutMs: 60_000 });
  expect(r.stderr.replace(/.*SqlCatalog detected a v0 schema.*\n?/g, '')).toBe('');
  const py = JSON.parse(r.stdout) as { rows: Record<string, string>[]; fields: [number, string, string][] };
  expect(py.fields).toEqual([[1, 'id', 'int'], [2, 'ssn', 'string'], [3, 'amount', 'decimal(10, 2)'], [4, 'region', 'string']]);
  const expected = ORDERS.map((o) => ({ id: String(o.id), ssn: o.ssn, amount: o.amount, region: o.region }));
  expect(py.rows).toEqual(expected);

  const carol = await connect(lg, { user: 'carol', password: 'carol' });
  const through = await carol.query({ text: 'SELECT id, ssn, amount, region FROM sales.orders ORDER BY id', types: rawTypes });
  expect(through.rows).toEqual(expected);
  await carol.end();
});

test('dave: the demo table does not exist for him, exactly like a missing one', async () => {
  const dave = await connect(lg, { user: 'dave', password: 'dave' });
  const denied = await rejection(dave.query('SELECT * FROM sales.orders'));
  const missing = await rejection(dave.query('SELECT * FROM sales.ordery'));
  expect([denied.code, denied.message, denied.position]).toEqual(['42P01', 'relation "sales.orders" does not exist', missing.position]);
  expect([missing.code, missing.message]).toEqual(['42P01', 'relation "sales.ordery" does not exist']);
  await dave.end();
});
