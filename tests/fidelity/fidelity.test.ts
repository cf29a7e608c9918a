/**
 * The fidelity corpus (tests/fidelity/corpus.ts) against lakegate and the real
 * PostgreSQL these tests start, over the same rows: every answer must equal
 * PostgreSQL's (column type OIDs, each value as text, error SQLSTATEs) or be
 * listed in known.ts with its reason. The list stays true: an entry that no
 * longer differs fails too, and README names every deliberate reason.
 * The corpus runs as `npm run fidelity` does, in its own process (lakegate
 * in-process under Jest's module sandbox would not recognise the engine's
 * error classes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { run } from '../support/clients.js';
import { REPO_ROOT } from '../support/lakegate.js';
import { CORPUS } from './corpus.js';
import { compare, type Outcome } from './harness.js';
import { KNOWN_DIFFERENCES } from './known.js';

let outcomes: Outcome[];
let summaryLine = '';

beforeAll(async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-fidelity-out-')), 'outcomes.json');
  const r = await run(path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), [path.join(REPO_ROOT, 'tests', 'fidelity', 'run.ts'), '--json', file], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
    timeoutMs: 540_000,
  });
  if (r.code !== 0 || !fs.existsSync(file)) throw new Error(`npm run fidelity failed (${r.code}): ${r.stderr}\n${r.stdout}`);
  outcomes = JSON.parse(fs.readFileSync(file, 'utf8')) as Outcome[];
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  summaryLine = r.stdout.trim().split('\n').pop() ?? '';
}, 600_000);

describe('the corpus answers as PostgreSQL does', () => {
  test('it holds at least 500 queries, each once, and every one was run', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(500);
    expect(new Set(CORPUS.map((e) => e.sql)).size).toBe(CORPUS.length);
    expect(outcomes.map((o) => o.entry.sql)).toEqual(CORPUS.map((e) => e.sql));
    expect(summaryLine).toMatch(new RegExp(`^pg-fidelity: \\d+ identical, \\d+ different, \\d+ errors of ${CORPUS.length}$`));
  });

  test('control: the comparison sees a different value, a different type and a different error', () => {
    const entry = { group: 'control', sql: 'select 1' };
    const pgA = { oids: [23], rows: [['1']] };
    expect(compare(entry, pgA, { oids: [23], rows: [['1']] }).verdict).toBe('identical');
    expect(compare(entry, pgA, { oids: [23], rows: [['2']] }).verdict).toBe('different');
    expect(compare(entry, pgA, { oids: [20], rows: [['1']] }).verdict).toBe('different');
    expect(compare(entry, pgA, { oids: [23], rows: [['1'], ['1']] }).verdict).toBe('different');
    expect(compare(entry, { error: { code: '42883', message: '' } }, { error: { code: '0A000', message: '' } }).verdict).toBe('error');
    expect(compare(entry, { error: { code: '42883', message: '' } }, pgA).verdict).toBe('error');
  });

  test('every difference is listed in known.ts with its reason', () => {
    const unlisted = outcomes
      .filter((o) => o.verdict !== 'identical' && !KNOWN_DIFFERENCES[o.entry.sql])
      .map((o) => `${o.entry.sql.replace(/\s+/g, ' ')} — ${o.why}`);
    expect(unlisted).toEqual([]);
  });

  test('no listed difference has gone away (the list stays true)', () => {
    const byText = new Map(outcomes.map((o) => [o.entry.sql, o]));
    const stale = Object.keys(KNOWN_DIFFERENCES).filter((sql) => byText.get(sql)?.verdict === 'identical' || !byText.has(sql));
    expect(stale).toEqual([]);
  });

  test('README names every deliberate difference', () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const reasons = new Set(Object.values(KNOWN_DIFFERENCES).filter((k) => k.kind === 'deliberate').map((k) => k.reason));
    expect([...reasons].filter((r) => !readme.includes(r))).toEqual([]);
  });

  test('ROW(…) and ::regclass print what PostgreSQL prints (their types are listed as open)', () => {
    for (const sql of ["select row(1,'a')", "select row(1, 'a', null, 2.5)", "select 'sales.orders'::regclass"]) {
      const o = outcomes.find((x) => x.entry.sql === sql)!;
      expect([sql, o.lakegate.rows]).toEqual([sql, o.pg.rows]);
    }
  });

  test("issue 20's set-returning refusals carry PostgreSQL's words, position and hint (control: the allowed placements answer rows on both sides)", () => {
    const group = outcomes.filter((o) => o.entry.group === 'set-returning');
    const refused = group.filter((o) => o.pg.error);
    expect(refused.length).toBeGreaterThanOrEqual(15);
    for (const o of refused) expect([o.entry.sql, o.lakegate.error]).toEqual([o.entry.sql, o.pg.error]);
    const allowed = group.filter((o) => !o.pg.error && !KNOWN_DIFFERENCES[o.entry.sql]);
    expect(allowed.length).toBeGreaterThanOrEqual(4);
    for (const o of allowed) expect([o.entry.sql, o.verdict]).toEqual([o.entry.sql, 'identical']);
  });

  test("issue 10's wrong answers are gone: integer division, exact numeric, sum(int) is bigint, errors keep their SQLSTATE", () => {
    const at = (sql: string) => outcomes.find((o) => o.entry.sql === sql);
    for (const sql of [
      'select 1/3, 7/2, -7/2',
      'select sum(p_size) from tpch.part',
      'select sum(id) from tpch.events',
      'select 10::numeric / 4',
      'select 10.00 / 3',
      'select avg(l_quantity) from tpch.lineitem',
      'select amount * 1.1, amount / 3, amount::int from sales.orders',
      'select 1/0',
      "select '2024-01-01 10:00+02'::timestamptz",
    ]) {
      expect([sql, at(sql)?.verdict]).toEqual([sql, 'identical']);
    }
  });
});
