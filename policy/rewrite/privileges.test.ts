/**
 * relationPrivileges / schemaCreate: the PostgreSQL privileges the catalog emulation shows are the
 * data gate's own decisions. Each privilege has its control: a user the policy covers beside one it
 * does not, a stored table beside a filtered, masked or partly restricted one.
 */
import { describe, expect, it } from '@jest/globals';
import { P, rangerRoles, servicePolicies } from '../../tests/support/rangerPolicies.js';
import { PolicyEngine } from '../ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../ranger/model.js';
import { RoleStore } from '../ranger/roles.js';
import type { CatalogTable } from '../../sql/catalogView.js';
import { decideTable, type Subject } from './decide.js';
import { relationPrivileges, schemaCreate } from './privileges.js';

const WRITE = ['select', 'update', 'create', 'drop', 'alter'];

const engine = new PolicyEngine(
  parseServicePolicies(
    servicePolicies('lakehouse', [
      P.allow('analysts read sales and analytics', 'sales', '*', '*', { roles: ['analyst'] }),
      P.allow('analysts read analytics', 'analytics', '*', '*', { roles: ['analyst'] }),
      P.allow('engineers write analytics', 'analytics', '*', '*', { roles: ['engineer'] }, { accesses: WRITE }),
      P.allow('engineers write sales', 'sales', '*', '*', { roles: ['engineer'] }, { accesses: ['update'] }),
      P.deny('nobody but sqe reads people.salary', 'sales', 'people', 'salary', { roles: ['analyst'] }),
      P.mask('ssn hashed', 'sales', 'orders', 'ssn', [[{ users: ['erin'] }, 'MASK_HASH']]),
      P.filter('carol EU only', 'analytics', 'events', [[{ users: ['carol'] }, "region = 'EU'"]]),
    ]),
    'test',
  ),
  { roles: new RoleStore(parseRangerRoles(rangerRoles('lakehouse', { analyst: ['alice', 'bob', 'carol', 'erin'], engineer: ['bob', 'carol', 'erin'] }), 'test')) },
);

const table = (database: string, name: string, columns: string[]): CatalogTable => ({
  schema: database,
  name,
  columns: columns.map((c) => ({ name: c, duckType: 'VARCHAR', nullable: true })),
  resource: { database, table: name },
  scan: () => ({ RangeVar: { schemaname: database, relname: name, inh: true, relpersistence: 'p' } }),
});

const ORDERS = table('sales', 'orders', ['id', 'ssn', 'region']);
const PEOPLE = table('sales', 'people', ['id', 'name', 'salary']);
const EVENTS = table('analytics', 'events', ['id', 'region']);
const who = (user: string, ...roles: string[]): Subject => ({ user, roles: new Set(roles), groups: new Set() });
const ALICE = who('alice', 'analyst');
const BOB = who('bob', 'analyst', 'engineer');
const CAROL = who('carol', 'analyst', 'engineer');
const ERIN = who('erin', 'analyst', 'engineer');
const DAVE = who('dave');

const privileges = (s: Subject, t: CatalogTable) => relationPrivileges(engine, s, t, decideTable(engine, s, t, undefined, { maskPrecedence: 'tag' }));

describe('relationPrivileges', () => {
  it('a reader holds SELECT only; a writer of a table it sees as stored holds INSERT, UPDATE, DELETE and TRUNCATE too', () => {
    expect(privileges(ALICE, EVENTS)).toEqual({ table: 'r', columns: null });
    expect(privileges(BOB, EVENTS)).toEqual({ table: 'arwdD', columns: null });
  });

  it('a row filter or a mask leaves a writer INSERT, not UPDATE / DELETE / TRUNCATE (which act on stored rows)', () => {
    expect(privileges(CAROL, EVENTS)).toEqual({ table: 'ar', columns: null });
    expect(privileges(ERIN, ORDERS)).toEqual({ table: 'ar', columns: null });
    expect(privileges(BOB, ORDERS)).toEqual({ table: 'arwdD', columns: null });
  });

  it('a restricted column withholds the table\'s SELECT and leaves SELECT on each readable column (PostgreSQL\'s column grants)', () => {
    expect(privileges(ALICE, PEOPLE)).toEqual({ table: '', columns: new Set(['id', 'name']) });
    expect(privileges(BOB, PEOPLE)).toEqual({ table: 'a', columns: new Set(['id', 'name']) });
  });

  it('a table the user may not read, or no policy engine, holds nothing', () => {
    expect(privileges(DAVE, ORDERS)).toEqual({ table: '', columns: null });
    expect(relationPrivileges(null, BOB, EVENTS, decideTable(null, BOB, EVENTS, undefined, { maskPrecedence: 'tag' }))).toEqual({ table: '', columns: null });
  });

  it('an Iceberg metadata table is read-only whatever its base table allows', () => {
    const files: CatalogTable = { ...table('analytics', 'events$files', ['file_path']), metadataOf: { base: EVENTS, rows: () => ({}) } };
    const decision = decideTable(engine, BOB, EVENTS, undefined, { maskPrecedence: 'tag' });
    expect(relationPrivileges(engine, BOB, files, decision).table).toBe('r');
  });
});

describe('schemaCreate', () => {
  it('is hive create on the database', () => {
    expect(schemaCreate(engine, BOB, 'analytics')).toBe(true);
    expect(schemaCreate(engine, BOB, 'sales')).toBe(false);
    expect(schemaCreate(engine, ALICE, 'analytics')).toBe(false);
    expect(schemaCreate(null, BOB, 'analytics')).toBe(false);
  });
});
