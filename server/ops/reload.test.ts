/** Which configuration changes a reload applies and which wait for a restart. */
import { parseConfig } from '../config.js';
import { changedKeys } from './reload.js';

const base = {
  usersFile: '/x/users.json',
  databases: { demo: '/x/demo.duckdb' },
  ranger: { source: { kind: 'local', path: '/x/ranger' } },
};

test('changedKeys names top-level keys and the ops keys that differ, defaults included', () => {
  const a = parseConfig(base);
  expect(changedKeys(a, parseConfig(base))).toEqual([]);
  const b = parseConfig({
    ...base,
    ranger: { source: { kind: 'local', path: '/y/ranger' } },
    ops: { statementLog: false, listen: '127.0.0.1:1' },
    limits: { maxPortals: 5 },
    audit: { destination: 'stdout' },
  });
  expect(changedKeys(a, b)).toEqual(['audit', 'limits', 'ops.listen', 'ops.statementLog', 'ranger']);
});

test('the ops section is validated: a listen address that is not one is refused', () => {
  expect(() => parseConfig({ ...base, ops: { listen: 'somewhere' } })).toThrow(/ops\.listen: an address such as "127\.0\.0\.1:9187" or a port/);
  expect(parseConfig(base).ops).toEqual({ statementLog: true, userLabels: false });
});
