/**
 * What each privilege writes, at each level, compared with README's tables
 * ("GRANT: what each privilege writes"), which are written from Polaris's
 * operation semantics and sqe's grant profile (reference §1.4, §1.5, §7.1),
 * not from this code: a grant, a DENY, and the data gate's side.
 */
import { readFileSync } from 'node:fs';
import { SqlError } from '../../sql/errors.js';
import { planDataGate } from './dataGateWrites.js';
import { planGrant, planOwnLevel, resolveTarget, type PlanContext, type Target } from './plan.js';
import { isWritePrivilege, type Privilege } from './privileges.js';
import type { ObjectRef } from './statement.js';

const ctx: PlanContext = { catalog: 'lake', realm: '*', defaultSchema: 'sales' };
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The markdown table after `<!-- name: … -->`, as rows of cells (header and rule dropped). */
function table(name: string): string[][] {
  const lines = README.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`<!-- ${name}:`));
  if (at < 0) throw new Error(`README has no table marked ${name}`);
  const rows: string[][] = [];
  for (const line of lines.slice(at + 3)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split('|').map((c) => c.trim()));
  }
  return rows;
}

const PRIVILEGE_NAMES: Record<string, Privilege> = {
  SELECT: 'SELECT',
  INSERT: 'INSERT',
  UPDATE: 'UPDATE',
  DELETE: 'DELETE',
  TRUNCATE: 'TRUNCATE',
  ALTER: 'ALTER',
  DROP: 'DROP',
  USAGE: 'USAGE',
  'CREATE TABLE': 'CREATE',
  'CREATE VIEW': 'CREATE_VIEW',
  'CREATE SCHEMA': 'CREATE_SCHEMA',
};
const privilegesOf = (cell: string): Privilege[] =>
  cell.split(',').map((p) => {
    const name = PRIVILEGE_NAMES[p.trim()];
    if (!name) throw new Error(`README names an unknown privilege: ${p}`);
    return name;
  });
const OBJECTS: Record<string, ObjectRef> = {
  table: { kind: 'table', parts: ['sales', 'orders'] },
  view: { kind: 'view', parts: ['sales', 'v'] },
  schema: { kind: 'schema', parts: ['sales'] },
  database: { kind: 'database', parts: ['lake'] },
};
const target = (on: string): Target => resolveTarget(OBJECTS[on]!, ctx);
const types = (cell: string) => (cell === '' ? [] : cell.split(',').map((t) => t.trim())).sort();

describe('GRANT writes the types README lists, level by level', () => {
  const rows = table('grant-types');
  it('README lists every privilege on every object it applies to', () => {
    const listed = new Set(rows.flatMap(([p, on]) => privilegesOf(p!).map((x) => `${x} ${on}`)));
    for (const p of Object.values(PRIVILEGE_NAMES))
      for (const on of Object.keys(OBJECTS)) {
        let applies = true;
        try {
          planGrant(p, target(on), ctx, false);
        } catch {
          applies = false;
        }
        expect([`${p} ${on}`, listed.has(`${p} ${on}`)]).toEqual([`${p} ${on}`, applies]);
      }
  });
  it.each(rows.flatMap(([p, on, catalog, namespace, tableSlot]) => privilegesOf(p!).map((x) => [x, on!, catalog!, namespace!, tableSlot!] as const)))(
    '%s ON %s',
    (p, on, catalog, namespace, tableSlot) => {
      const written = planGrant(p, target(on), ctx, false);
      const byLevel = Object.fromEntries(written.map((w) => [w.level, [...w.types].sort()]));
      const expected = Object.fromEntries(
        ([['catalog', catalog], ['namespace', namespace], ['table', tableSlot]] as const).filter(([, c]) => c !== '').map(([level, c]) => [level, types(c)]),
      );
      expect(byLevel).toEqual(expected);
      // the levels are written outermost first, each on its own resource
      expect(written.map((w) => w.level)).toEqual((['catalog', 'namespace', 'table'] as const).filter((l) => l in expected));
      expect(written.at(-1)!.resource).toEqual({ root: '*', catalog: 'lake', ...(on === 'database' ? {} : { namespace: 'sales' }), ...(on === 'table' ? { table: 'orders' } : on === 'view' ? { table: 'v' } : {}) });
    },
  );
});

describe('DENY writes the types README lists, on the privilege\'s own level only', () => {
  it.each(table('deny-types').flatMap(([p, on, denied]) => privilegesOf(p!).map((x) => [x, on!, denied!] as const)))('DENY %s ON %s', (p, on, denied) => {
    const written = planGrant(p, target(on), ctx, true);
    expect(written).toHaveLength(1);
    expect([...written[0]!.types].sort()).toEqual(types(denied));
    expect(written[0]!.level).toBe(planOwnLevel(p, target(on), ctx).level);
  });
  it('a DENY of a write never denies the reading a grant of it carries', () => {
    for (const p of ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'ALTER'] as const) {
      expect(planGrant(p, target('table'), ctx, true)[0]!.types).not.toContain('table-properties-read');
      expect(planGrant(p, target('table'), ctx, true)[0]!.types).not.toContain('table-data-read');
    }
  });
});

describe('the data gate\'s side of a write privilege, as README lists it', () => {
  const rows = table('data-gate-types');
  const names: Record<string, string> = { s: 'sales', t: 'orders', v: 'v', '*': '*' };
  it.each(rows.flatMap(([p, on, type, database, tableName, column]) => privilegesOf(p!).map((x) => [x, on!, type!, database!, tableName!, column!] as const)))(
    '%s ON %s',
    (p, on, type, database, tableName, column) => {
      const w = planDataGate(p, target(on))!;
      expect([...w.types]).toEqual([type]);
      const resource: Record<string, string> = { database: names[database]! };
      if (tableName !== '') resource['table'] = names[tableName]!;
      if (column !== '') resource['column'] = column;
      expect(w.resource).toEqual(resource);
    },
  );
  it('every write privilege is listed; SELECT, USAGE and ALL have no data-gate side', () => {
    const listed = new Set(rows.flatMap(([p]) => privilegesOf(p!)));
    for (const p of Object.values(PRIVILEGE_NAMES)) expect([p, listed.has(p)]).toEqual([p, isWritePrivilege(p)]);
    for (const p of ['SELECT', 'USAGE', 'ALL'] as const) expect(planDataGate(p, target('table'))).toBeNull();
  });
});

describe('one level per privilege and object: a wider one is refused, naming the level', () => {
  const refusal = (p: Privilege, on: ObjectRef) => {
    try {
      planGrant(p, resolveTarget(on, ctx), ctx, false);
    } catch (e) {
      if (e instanceof SqlError) return [e.code, e.message, e.hint];
      throw e;
    }
    return null;
  };
  it('a table privilege on a schema or the database names the table level', () => {
    for (const p of ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'ALTER'] as const) {
      expect(refusal(p, OBJECTS['schema']!)).toEqual(['0LP01', `${p} binds to the table level: ON SCHEMA sales names no table`, 'Name a table, or ALL TABLES IN SCHEMA sales for every table, now and later.']);
    }
    expect(refusal('DROP', OBJECTS['database']!)).toEqual([
      '0LP01',
      'DROP binds to the table level: ON DATABASE lake names no table',
      'Name a table, or ALL TABLES IN SCHEMA <schema> for every table, now and later (DROP ON SCHEMA s: the schema itself).',
    ]);
  });
  it('a schema privilege on a table names the namespace it would have been written on', () => {
    expect(refusal('CREATE_VIEW', OBJECTS['table']!)).toEqual(['0LP01', 'CREATE VIEW binds to the namespace (schema) level: ON TABLE sales.orders would be written on namespace "lake.sales"', 'Grant CREATE VIEW ON SCHEMA sales.']);
  });
  it('a data write on a view is PostgreSQL\'s invalid privilege type', () => {
    for (const p of ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] as const) expect(refusal(p, OBJECTS['view']!)?.slice(0, 2)).toEqual(['0LP01', `invalid privilege type ${p} for view`]);
  });
});
