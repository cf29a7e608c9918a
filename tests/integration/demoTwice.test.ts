/**
 * Two `lakegate demo` processes on one data dir: the engine is in memory and the
 * warehouse is only read, so the second one starts and serves the same Iceberg
 * table as the first (the issue: it used to fail on DuckDB's file lock). Two
 * started at the same moment on an empty dir both come up, and the table is
 * written once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { startLakegate, type Lakegate } from '../support/lakegate.js';
import { connect } from '../support/clients.js';
import { ORDERS } from '../support/target.js';

const running: Lakegate[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const lg of running) await lg.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function rows(lg: Lakegate): Promise<unknown[]> {
  const c = await connect(lg, { user: 'carol', password: 'carol' });
  try {
    return (await c.query('SELECT id, ssn, amount::text AS amount, region FROM sales.orders ORDER BY id')).rows;
  } finally {
    await c.end();
  }
}

const expected = ORDERS.map((o) => ({ ...o }));

describe('a second demo on the same data dir', () => {
  test('starts while the first runs, both serve the table, and it outlives the first', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-twice-'));
    dirs.push(dir);
    const first = await startLakegate({ dataDir: dir });
    running.push(first);
    expect(await rows(first)).toEqual(expected);
    const second = await startLakegate({ dataDir: dir });
    running.push(second);
    expect(second.output()).not.toMatch(/lock/i);
    expect(await rows(second)).toEqual(expected);
    await first.stop();
    expect(await rows(second)).toEqual(expected);
    await second.stop();
  }, 120000);

  test('two started at once on an empty dir both come up, and the table is written once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-twice-'));
    dirs.push(dir);
    const both = await Promise.all([startLakegate({ dataDir: dir }), startLakegate({ dataDir: dir })]);
    running.push(...both);
    for (const lg of both) expect(await rows(lg)).toEqual(expected);
    const metadata = fs.readdirSync(path.join(dir, 'warehouse', 'sales', 'orders', 'metadata')).filter((f) => f.endsWith('.metadata.json'));
    expect(metadata).toHaveLength(1);
    for (const lg of both) await lg.stop();
  }, 120000);
});
