/**
 * The data gate decides each column by the name policies know it by: an
 * older snapshot's column (CatalogColumn.policyName) by today's name, a
 * dropped one restricted whatever the policies say; and a column whose name
 * is a member of Object.prototype like any other. Through sql/'s planner onto
 * a real DuckDB, the old snapshot stood in for by a table with the old names;
 * expected values written out here. carol (no mask, no filter) is the control.
 * And a reference no policy changes still exposes only the catalog's columns.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { CatalogTable, RelationCatalog } from '../../sql/catalogView.js';
import { P, rangerRoles, servicePolicies } from '../../tests/support/rangerPolicies.js';
import { demoDuckDb, gateRows, installGateMacros, planWithGate } from '../../tests/support/dataGate.js';
import { PolicyEngine } from '../ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../ranger/model.js';
import { RoleStore } from '../ranger/roles.js';
import { reportRows } from './report.js';

let instance: DuckDBInstance;
let conn: DuckDBConnection;

const scanOf = (relname: string) => () => ({ RangeVar: { catalogname: 'demo', schemaname: 'sales', relname, inh: true, relpersistence: 'p' } });

/** sales.people as of an older snapshot: ssn is today's tax_id, area today's region, nick gone. */
const oldPeople: CatalogTable = {
  schema: 'sales',
  name: 'people',
  columns: [
    { name: 'id', duckType: 'INTEGER', nullable: false, fieldId: 1 },
    { name: 'ssn', duckType: 'VARCHAR', nullable: true, fieldId: 2, policyName: 'tax_id' },
    { name: 'area', duckType: 'VARCHAR', nullable: true, fieldId: 3, policyName: 'region' },
    { name: 'nick', duckType: 'VARCHAR', nullable: true, fieldId: 4, policyName: null },
  ],
  resource: { database: 'sales', table: 'people' },
  scan: scanOf('people_v1'),
  snapshotId: '10',
  columnTags: Object.assign(Object.create(null) as Record<string, string[]>, { region: ['GEO'] }),
};

/** A table with columns named like Object.prototype members, and no tags for them. */
const odd: CatalogTable = {
  schema: 'sales',
  name: 'proto',
  columns: ['constructor', 'toString', '__proto__'].map((name) => ({ name, duckType: 'VARCHAR', nullable: true })),
  resource: { database: 'sales', table: 'proto' },
  scan: scanOf('proto'),
  columnTags: {},
};

const catalog: RelationCatalog = {
  listSchemas: () => ['public', 'sales'],
  getTable: (schema, name) => (schema !== 'sales' ? undefined : name === 'people' ? oldPeople : name === 'proto' ? odd : undefined),
};

const MASK = P.mask('tax ids', 'sales', 'people', 'tax_id', [[{ users: ['alice'] }, 'MASK_SHOW_LAST_4']]);
const NICK = P.allow('nick for everyone', 'sales', 'people', 'nick', { roles: ['analyst'] });
const engine = new PolicyEngine(
  parseServicePolicies(
    servicePolicies(
      'lakehouse',
      [
        P.allow('analysts read sales', 'sales', '*', '*', { roles: ['analyst'] }),
        NICK,
        MASK,
        P.filter('rows', 'sales', 'people', [[{ users: ['erin'] }, "region = 'EU'"], [{ users: ['bob'] }, "tier = 'gold'"]]),
      ],
      [P.tagMask('GEO redacted', 'GEO', [[{ users: ['alice'] }, 'MASK']])],
    ),
    'test',
  ),
  { roles: new RoleStore(parseRangerRoles(rangerRoles('lakehouse', { analyst: ['alice', 'bob', 'carol', 'erin'] }), 'test')) },
);

beforeAll(async () => {
  ({ instance, conn } = await demoDuckDb());
  await conn.run('CREATE TABLE demo.sales.people_v1 (id INTEGER, ssn VARCHAR, area VARCHAR, nick VARCHAR)');
  await conn.run(`INSERT INTO demo.sales.people_v1 VALUES (1, '111-11-1111', 'EU', 'ann'), (2, '333-33-3333', 'US', 'bo')`);
  await conn.run('CREATE TABLE demo.sales.proto ("constructor" VARCHAR, "toString" VARCHAR, "__proto__" VARCHAR)');
  await conn.run(`INSERT INTO demo.sales.proto VALUES ('a', 'b', 'c')`);
  await installGateMacros(conn, 'policy-names-test-mask-key');
});

afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

const rows = (sql: string, user: string) => gateRows(conn, catalog, sql, user, { engine });

describe('an older snapshot’s columns', () => {
  it('alice: the mask on tax_id masks ssn, the tag on region masks area, nick is NULL although a policy allows it', async () => {
    expect(await rows('SELECT * FROM sales.people ORDER BY id', 'alice')).toEqual([
      [1, 'xxx-xx-1111', 'XX', null],
      [2, 'xxx-xx-3333', 'XX', null],
    ]);
  });

  it('control: carol reads ssn and area as stored; nick is NULL for her too', async () => {
    expect(await rows('SELECT * FROM sales.people ORDER BY id', 'carol')).toEqual([
      [1, '111-11-1111', 'EU', null],
      [2, '333-33-3333', 'US', null],
    ]);
  });

  it('a row filter on region reads area; one on a column the snapshot lacks (tier) shows no rows', async () => {
    expect(await rows('SELECT id, area FROM sales.people ORDER BY id', 'erin')).toEqual([[1, 'EU']]);
    expect(await rows('SELECT id FROM sales.people', 'bob')).toEqual([]);
  });

  it('EXPLAIN (POLICY) names the column decided', () => {
    const { statement } = planWithGate(catalog, 'SELECT * FROM sales.people', 'alice', { engine });
    expect(reportRows(statement.applied).slice(1)).toEqual([
      ['sales.people', 'id', 'readable', null, null, null],
      ['sales.people', 'ssn', 'mask MASK_SHOW_LAST_4', MASK['id'], 'tax ids', 'decided as column tax_id'],
      ['sales.people', 'area', 'mask MASK', expect.any(Number), 'GEO redacted', 'decided as column region; tag GEO'],
      ['sales.people', 'nick', 'restricted', null, null, 'the column is no longer in the table (dropped since this snapshot)'],
    ]);
  });
});

describe('columns named like Object.prototype members', () => {
  it('are read like any column (the table is not hidden by a tag lookup through the prototype)', async () => {
    expect(await rows('SELECT * FROM sales.proto', 'alice')).toEqual([['a', 'b', 'c']]);
  });
});

describe('the scan’s own hidden columns', () => {
  it('a reference no policy changes is still a projection of the catalog’s columns: DuckDB’s rowid is not reachable', async () => {
    expect(await rows('SELECT "constructor" FROM sales.proto', 'carol')).toEqual([['a']]);
    // refused before planning, as PostgreSQL refuses it
    await expect(rows('SELECT rowid FROM sales.proto', 'carol')).rejects.toThrow('column "rowid" does not exist');
    await expect(rows('SELECT p.rowid FROM sales.proto p', 'carol')).rejects.toThrow('column p.rowid does not exist');
    // through a derived table the reference check leaves to the engine: the projection is what stops it
    await expect(rows('SELECT rowid FROM sales.proto, (SELECT 1 AS one) x', 'carol')).rejects.toThrow('Referenced column "rowid" not found');
  });
});

