/**
 * What a user's SHOW GRANTS may name: resource values narrowed to what the
 * asker may load. The asker here may load namespaces sales and hr, the tables
 * sales.orders and hr.staff; hr.salaries exists but is hidden from them (the
 * catalog answers it like a missing table), and so does namespace finance.
 */
import type { Json } from './merge.js';
import type { LoadableObjects } from './objects.js';
import { visiblePolicies } from './visibleGrants.js';

const loadable = [
  { namespace: ['sales'], name: 'orders' },
  { namespace: ['hr'], name: 'staff' },
];
const asked: string[] = [];
const objects: LoadableObjects = {
  relation: async (_a, ns, name) => {
    asked.push(`relation ${ns.join('.')}.${name}`);
    return loadable.some((r) => r.namespace.join('.') === ns.join('.') && r.name === name) ? 'table' : null;
  },
  namespaces: async () => {
    asked.push('namespaces');
    return [['sales'], ['hr']];
  },
  relations: async () => {
    asked.push('relations');
    return loadable;
  },
};
const alice = { user: 'alice' };

const policy = (resources: Record<string, string[] | { values: string[]; isExcludes: boolean }>): Json => ({
  policyType: 0,
  resources: Object.fromEntries(Object.entries(resources).map(([k, v]) => [k, Array.isArray(v) ? { values: v, isExcludes: false, isRecursive: false } : { ...v, isRecursive: false }])),
  policyItems: [{ users: ['alice'], accesses: [{ type: 'table-data-read', isAllowed: true }] }],
});
/** The values each policy keeps, slot by slot; null where it is left out. */
const shown = async (...ps: Json[]) => {
  asked.length = 0;
  const numbered = ps.map((p, i) => ({ ...p, id: i + 1 }));
  const out = await visiblePolicies(numbered, 'lake', alice, objects);
  return numbered.map((p) => {
    const kept = out.find((o) => o['id'] === p['id']);
    return kept ? Object.fromEntries(Object.entries(kept['resources'] as Record<string, { values: string[] }>).map(([k, v]) => [k, v.values])) : null;
  });
};
const table = (namespace: string[], tables: string[], catalog = ['lake']) => policy({ root: ['*'], catalog, namespace, table: tables });

describe('a user\'s SHOW GRANTS names only what the user may load', () => {
  it('a table the user may load is kept; a hidden one is left out, asked as a SELECT would', async () => {
    expect(await shown(table(['sales'], ['orders']), table(['hr'], ['salaries']))).toEqual([
      { root: ['*'], catalog: ['lake'], namespace: ['sales'], table: ['orders'] },
      null,
    ]);
    // names only: each asked by name, no listing of everything
    expect(asked).not.toContain('relations');
    expect(asked).toContain('relation hr.salaries');
  });

  it('`*` is kept, in a slot of its own or beside a hidden name (the name is dropped)', async () => {
    expect(await shown(table(['hr'], ['*']), table(['hr'], ['salaries', '*']), table(['*'], ['*']))).toEqual([
      { root: ['*'], catalog: ['lake'], namespace: ['hr'], table: ['*'] },
      { root: ['*'], catalog: ['lake'], namespace: ['hr'], table: ['*'] },
      { root: ['*'], catalog: ['lake'], namespace: ['*'], table: ['*'] },
    ]);
  });

  it('a pattern is kept only where it covers something the user may load (its text then shows only visible characters)', async () => {
    expect(await shown(table(['hr'], ['sal*']), table(['hr'], ['s?aff']), table(['hr'], ['ST*']), table(['*'], ['salaries']))).toEqual([
      null,
      { root: ['*'], catalog: ['lake'], namespace: ['hr'], table: ['s?aff'] },
      // Ranger matches polaris resources case-insensitively
      { root: ['*'], catalog: ['lake'], namespace: ['hr'], table: ['ST*'] },
      null,
    ]);
    expect(asked).toContain('relations');
  });

  it('namespaces: a hidden one is left out at every level; a namespace-level policy is matched on its whole path', async () => {
    const ns = (values: string[]) => policy({ root: ['*'], catalog: ['lake'], namespace: values });
    expect(await shown(ns(['finance']), ns(['hr', 'finance']), ns(['f*']), table(['finance'], ['*']))).toEqual([
      null,
      { root: ['*'], catalog: ['lake'], namespace: ['hr'] },
      null,
      null,
    ]);
  });

  it('excluded values are shown only when all of them are visible (the exclusion would name a hidden one)', async () => {
    const excl = (values: string[]) => policy({ root: ['*'], catalog: ['lake'], namespace: ['hr'], table: { values, isExcludes: true } });
    expect(await shown(excl(['salaries', 'staff']), excl(['staff']))).toEqual([null, { root: ['*'], catalog: ['lake'], namespace: ['hr'], table: ['staff'] }]);
  });

  it('another catalog is left out; the connected one by name or pattern, root and principal policies as they are', async () => {
    expect(
      await shown(
        table(['sales'], ['orders'], ['finance_wh']),
        table(['sales'], ['orders'], ['la*']),
        policy({ root: ['*'], catalog: ['lake'] }),
        policy({ root: ['*'] }),
        policy({ root: ['*'], principal: ['alice'] }),
      ),
    ).toEqual([
      null,
      { root: ['*'], catalog: ['la*'], namespace: ['sales'], table: ['orders'] },
      { root: ['*'], catalog: ['lake'] },
      { root: ['*'] },
      { root: ['*'], principal: ['alice'] },
    ]);
  });
});
