/**
 * decideTable on its own: what the gate is told to do for a mask policy whose
 * column resource is an exclusion list (SQE fails closed: no row) and for an
 * unusable tag mask next to a usable resource mask (SQE keeps the resource
 * mask). Each case has its control: the same policy without the exclusion, a
 * user the policy item does not cover, the same column without the unusable tag.
 */
import { describe, expect, it } from '@jest/globals';
import { P, rangerRoles, servicePolicies } from '../../tests/support/rangerPolicies.js';
import { PolicyEngine } from '../ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../ranger/model.js';
import { RoleStore } from '../ranger/roles.js';
import type { CatalogTable } from '../../sql/catalogView.js';
import { decideTable, EXCLUDING_MASK, type ColumnTags, type MaskPrecedence, type Subject, type TableDecision } from './decide.js';

type Json = Record<string, unknown>;

function engineOf(policies: Json[], tagPolicies: Json[] = []): PolicyEngine {
  const doc = servicePolicies('lakehouse', [P.allow('analysts read sales', 'sales', '*', '*', { roles: ['analyst'] }), ...policies], tagPolicies);
  return new PolicyEngine(parseServicePolicies(doc, 'test'), {
    roles: new RoleStore(parseRangerRoles(rangerRoles('lakehouse', { analyst: ['alice', 'bob'], engineer: ['bob'] }), 'test')),
  });
}

const table = (name: string, columns: string[]): CatalogTable => ({
  schema: 'sales',
  name,
  columns: columns.map((c) => ({ name: c, duckType: 'VARCHAR', nullable: true })),
  resource: { database: 'sales', table: name },
  scan: () => ({ RangeVar: { schemaname: 'sales', relname: name, inh: true, relpersistence: 'p' } }),
});

const PEOPLE = table('people', ['id', 'name', 'email']);
const subject = (user: string, roles: string[]): Subject => ({ user, roles: new Set(roles), groups: new Set() });
const ALICE = subject('alice', ['analyst']);
const BOB = subject('bob', ['analyst', 'engineer']);

function decide(engine: PolicyEngine, who: Subject, t: CatalogTable = PEOPLE, tags?: ColumnTags, precedence: MaskPrecedence = 'tag') {
  const d = decideTable(engine, who, t, tags, { maskPrecedence: precedence });
  if (!d.visible) throw new Error(`not visible: ${d.reason}`);
  return d;
}

const masks = (d: Extract<TableDecision, { visible: true }>) => Object.fromEntries(d.columns.map((c) => [c.name, c.mask?.type ?? null]));

/** A mask policy on sales.people for alice; `excludes`: its column list names the columns it does not mask. */
function hashPolicy(columns: string[], excludes: boolean): Json {
  const p = P.mask('people hashed', 'sales', 'people', '*', [[{ users: ['alice'] }, 'MASK_HASH']]);
  return { ...p, resources: { database: { values: ['sales'] }, table: { values: ['people'] }, column: { values: columns, isExcludes: excludes } } };
}

describe('a mask policy whose column resource excludes columns', () => {
  it('shows the user its item covers no row, naming the policy', () => {
    const policy = hashPolicy(['email'], true);
    const d = decide(engineOf([policy]), ALICE);
    expect(d.noRows).toBe(EXCLUDING_MASK);
    expect(d.noRowsPolicy).toEqual({ policy: { id: policy['id'], name: 'people hashed' }, audited: true });
  });

  it('control: the same policy without the exclusion masks the column it names, rows shown', () => {
    const d = decide(engineOf([hashPolicy(['email'], false)]), ALICE);
    expect(d.noRows).toBeNull();
    expect(d.noRowsPolicy).toBeUndefined();
    expect(masks(d)).toEqual({ id: null, name: null, email: 'MASK_HASH' });
  });

  it('control: a user the policy item does not cover sees rows, unmasked', () => {
    const d = decide(engineOf([hashPolicy(['email'], true)]), BOB);
    expect(d.noRows).toBeNull();
    expect(masks(d)).toEqual({ id: null, name: null, email: null });
  });

  it('an exclusion that names every column of the table still fails closed', () => {
    const d = decide(engineOf([hashPolicy(['id', 'name', 'email'], true)]), ALICE);
    expect(d.noRows).toBe(EXCLUDING_MASK);
  });

  it('an exclusion policy on another table leaves this one alone', () => {
    const d = decide(engineOf([hashPolicy(['email'], true)]), ALICE, table('orders', ['id', 'email']));
    expect(d.noRows).toBeNull();
  });

  it('a mask policy excluding tables (not columns) masks as Ranger does: nothing to fail closed on', () => {
    const p = P.mask('all but orders', 'sales', '*', 'email', [[{ users: ['alice'] }, 'MASK_HASH']]);
    const policy = { ...p, resources: { database: { values: ['sales'] }, table: { values: ['orders'], isExcludes: true }, column: { values: ['email'] } } };
    const d = decide(engineOf([policy]), ALICE);
    expect(d.noRows).toBeNull();
    expect(masks(d)).toEqual({ id: null, name: null, email: 'MASK_HASH' });
  });
});

describe('an unusable tag mask next to a usable resource mask', () => {
  const resourceHash = () => P.mask('email hashed', 'sales', 'people', 'email', [[{ roles: ['analyst'] }, 'MASK_HASH']]);
  const TAGGED: ColumnTags = { email: ['PII'] };

  for (const precedence of ['tag', 'resource'] as const) {
    it(`a CUSTOM tag mask without an expression gives way to the resource mask (${precedence} precedence)`, () => {
      const d = decide(engineOf([resourceHash()], [P.tagMask('PII custom', 'PII', [[{ roles: ['analyst'] }, 'CUSTOM']])]), ALICE, PEOPLE, TAGGED, precedence);
      expect(d.columns[2]!.mask).toMatchObject({ type: 'MASK_HASH', policy: { name: 'email hashed' } });
    });

    it(`another component's tag mask type gives way to the resource mask (${precedence} precedence)`, () => {
      const tagPolicy = P.tagMask('PII trino', 'PII', [[{ roles: ['analyst'] }, 'MASK_NULL']]);
      (tagPolicy['dataMaskPolicyItems'] as Json[])[0]!['dataMaskInfo'] = { dataMaskType: 'trino:MASK_NULL' };
      const d = decide(engineOf([resourceHash()], [tagPolicy]), ALICE, PEOPLE, TAGGED, precedence);
      expect(d.columns[2]!.mask).toMatchObject({ type: 'MASK_HASH', policy: { name: 'email hashed' } });
    });
  }

  it('control: a usable tag mask still wins under tag precedence and loses under resource precedence', () => {
    const engine = engineOf([resourceHash()], [P.tagMask('PII redacted', 'PII', [[{ roles: ['analyst'] }, 'MASK']])]);
    expect(decide(engine, ALICE, PEOPLE, TAGGED, 'tag').columns[2]!.mask).toMatchObject({ type: 'MASK', policy: { name: 'PII redacted', tag: 'PII' } });
    expect(decide(engine, ALICE, PEOPLE, TAGGED, 'resource').columns[2]!.mask).toMatchObject({ type: 'MASK_HASH' });
  });

  it('control: the same column without the tag takes the resource mask', () => {
    const engine = engineOf([resourceHash()], [P.tagMask('PII custom', 'PII', [[{ roles: ['analyst'] }, 'CUSTOM']])]);
    expect(decide(engine, ALICE, PEOPLE, {}).columns[2]!.mask).toMatchObject({ type: 'MASK_HASH' });
  });

  it('no usable mask left: the unusable one stays (the gate restricts the column), never no mask', () => {
    const custom = engineOf([], [P.tagMask('PII custom', 'PII', [[{ roles: ['analyst'] }, 'CUSTOM']])]);
    expect(decide(custom, ALICE, PEOPLE, TAGGED).columns[2]!.mask).toMatchObject({ type: 'CUSTOM', valueExpr: null });
    const tagPolicy = P.tagMask('PII trino', 'PII', [[{ roles: ['analyst'] }, 'MASK_NULL']]);
    (tagPolicy['dataMaskPolicyItems'] as Json[])[0]!['dataMaskInfo'] = { dataMaskType: 'trino:MASK_NULL' };
    expect(decide(engineOf([], [tagPolicy]), ALICE, PEOPLE, TAGGED).columns[2]!.mask).toMatchObject({ type: 'trino:MASK_NULL' });
  });
});
