/** The access-control statements' two grammars: PostgreSQL's for the standard forms, ours for the rest. */
import { SqlError } from '../../sql/errors.js';
import { loadParser } from '../../sql/parse.js';
import { isAdminText, parseAdmin } from './parse.js';

beforeAll(() => loadParser());

const fail = (sql: string) => {
  try {
    parseAdmin(sql);
  } catch (e) {
    if (e instanceof SqlError) return { code: e.code, message: e.message, position: e.position };
    throw e;
  }
  throw new Error(`parsed: ${sql}`);
};

describe('recognising an access-control statement by its first words', () => {
  it.each([
    ['GRANT SELECT ON t TO u', true],
    ['  -- c\n revoke x', true],
    ['/* a */ DENY', true],
    ['show grants', true],
    ['SHOW search_path', false],
    ['check access select on t for user u', true],
    ['SET TAG PII ON COLUMN a.b.c', true],
    ['SET search_path = x', false],
    ['SELECT 1', false],
    ['UNSET TAG x', true],
    ['SHOW TAGS ON lake.sales.orders', true],
    ["ALTER TABLE t ALTER COLUMN c SET TAG pii = 'yes'", true],
    ['/* sqe */ alter table "My T".x modify column "C c" unset tag pii', true],
    ['ALTER TABLE lake.sales.orders ALTER ssn UNSET TAG PII', true],
    ['ALTER TABLE t ALTER COLUMN tag SET DEFAULT 1', false],
    ['ALTER TABLE t ALTER COLUMN c SET TAGS', false],
    ['ALTER TABLE t ADD COLUMN c int', false],
  ])('%s → %s', (sql, expected) => expect(isAdminText(sql)).toBe(expected));
});

describe('standard forms through PostgreSQL\'s grammar', () => {
  it('GRANT on a table, qualified three ways, bare grantee = user, WITH GRANT OPTION', () => {
    expect(parseAdmin('GRANT SELECT, INSERT ON lake.sales.orders TO dave, "Bob" WITH GRANT OPTION')).toEqual({
      kind: 'grant',
      privileges: ['SELECT', 'INSERT'],
      object: { kind: 'table', parts: ['lake', 'sales', 'orders'] },
      grantees: [{ type: 'USER', name: 'dave' }, { type: 'USER', name: 'Bob' }],
      grantOption: true,
    });
  });
  it('GROUP is kept although PostgreSQL\'s tree drops the keyword', () => {
    expect(parseAdmin('GRANT ALL PRIVILEGES ON ALL TABLES IN SCHEMA sales TO GROUP eng')).toMatchObject({
      privileges: ['ALL'],
      object: { kind: 'all-tables', parts: ['sales'] },
      grantees: [{ type: 'GROUP', name: 'eng' }],
    });
  });
  it('CREATE ON DATABASE is CREATE SCHEMA; CREATE ON SCHEMA is PostgreSQL\'s: tables and views', () => {
    expect(parseAdmin('GRANT CREATE ON DATABASE lake TO dave')).toMatchObject({ privileges: ['CREATE_SCHEMA'], object: { kind: 'database', parts: ['lake'] } });
    expect(parseAdmin('REVOKE CREATE ON SCHEMA sales FROM dave')).toMatchObject({ kind: 'revoke', privileges: ['CREATE', 'CREATE_VIEW'], object: { kind: 'schema' } });
  });
  it('the write privileges PostgreSQL spells: UPDATE, DELETE, TRUNCATE, and ALTER / DROP as its grammar reads them', () => {
    expect(parseAdmin('GRANT UPDATE, DELETE, TRUNCATE ON sales.orders TO dave')).toMatchObject({ privileges: ['UPDATE', 'DELETE', 'TRUNCATE'], object: { kind: 'table' } });
    expect(parseAdmin('REVOKE ALTER, DROP ON ALL TABLES IN SCHEMA sales FROM dave')).toMatchObject({ kind: 'revoke', privileges: ['ALTER', 'DROP'], object: { kind: 'all-tables' } });
    expect(parseAdmin('GRANT DROP ON SCHEMA sales TO dave')).toMatchObject({ privileges: ['DROP'], object: { kind: 'schema', parts: ['sales'] } });
    expect(fail('GRANT REFERENCES ON sales.orders TO dave')).toMatchObject({ code: '0A000' });
  });
  it('GRANT role TO user is not ours (the router refuses it)', () => {
    expect(parseAdmin('GRANT analyst TO dave')).toBeNull();
  });
  it('REVOKE GRANT OPTION FOR is refused, not taken as a REVOKE of the privilege', () => {
    expect(fail('REVOKE GRANT OPTION FOR SELECT ON sales.orders FROM dave').code).toBe('0A000');
  });
  it('column privileges and PUBLIC are refused', () => {
    expect(fail('GRANT SELECT (id) ON sales.orders TO dave').code).toBe('0A000');
    expect(fail('GRANT SELECT ON sales.orders TO PUBLIC').code).toBe('0A000');
  });
});

describe('our grammar', () => {
  it('DENY, TO USER / ROLE, ON VIEW, FUTURE TABLES, ALL VIEWS, MANAGE', () => {
    expect(parseAdmin('DENY SELECT ON VIEW sales.v TO ROLE analyst;')).toEqual({
      kind: 'deny',
      privileges: ['SELECT'],
      object: { kind: 'view', parts: ['sales', 'v'] },
      grantees: [{ type: 'ROLE', name: 'analyst' }],
      grantOption: false,
    });
    expect(parseAdmin('GRANT SELECT ON FUTURE TABLES IN SCHEMA lake.sales TO USER dave')).toMatchObject({ object: { kind: 'future-tables', parts: ['lake', 'sales'] } });
    expect(parseAdmin('GRANT DROP ON ALL VIEWS IN SCHEMA sales TO USER dave')).toMatchObject({ privileges: ['DROP'], object: { kind: 'all-views' } });
    expect(parseAdmin('GRANT MANAGE ON CATALOG lake TO ROLE admins')).toMatchObject({ privileges: ['ALL'], object: { kind: 'database', parts: ['lake'] } });
    expect(parseAdmin('GRANT CREATE TABLE ON SCHEMA sales TO USER dave')).toMatchObject({ privileges: ['CREATE'] });
    expect(parseAdmin('GRANT CREATE VIEW ON SCHEMA sales TO USER dave')).toMatchObject({ privileges: ['CREATE_VIEW'] });
    expect(parseAdmin('GRANT CREATE ON SCHEMA sales TO USER dave')).toMatchObject({ privileges: ['CREATE', 'CREATE_VIEW'] });
    expect(parseAdmin('GRANT ALTER, DROP ON VIEW sales.v TO USER dave')).toMatchObject({ privileges: ['ALTER', 'DROP'], object: { kind: 'view' } });
    expect(parseAdmin('DENY INSERT, UPDATE, DELETE, TRUNCATE ON TABLE sales.orders TO USER dave')).toMatchObject({ kind: 'deny', privileges: ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] });
    expect(parseAdmin('CHECK ACCESS ALTER ON sales.orders FOR USER dave')).toMatchObject({ privilege: 'ALTER' });
    expect(parseAdmin('CHECK ACCESS CREATE ON SCHEMA sales FOR USER dave')).toMatchObject({ privilege: 'CREATE' });
    expect(parseAdmin('CHECK ACCESS CREATE VIEW ON SCHEMA sales FOR USER dave')).toMatchObject({ privilege: 'CREATE_VIEW' });
    expect(parseAdmin('GRANT CREATE SCHEMA ON DATABASE lake TO USER dave')).toMatchObject({ privileges: ['CREATE_SCHEMA'] });
    // a user named "user"
    expect(parseAdmin('GRANT SELECT ON t TO USER user')).toMatchObject({ grantees: [{ type: 'USER', name: 'user' }] });
  });
  it('SHOW GRANTS, CHECK ACCESS, SET / UNSET TAG', () => {
    expect(parseAdmin('SHOW GRANTS')).toEqual({ kind: 'show-grants' });
    expect(parseAdmin('show grants on schema sales')).toEqual({ kind: 'show-grants', on: { kind: 'schema', parts: ['sales'] } });
    expect(parseAdmin('SHOW GRANTS TO ROLE "Analyst"')).toEqual({ kind: 'show-grants', to: { type: 'ROLE', name: 'Analyst' } });
    expect(parseAdmin('CHECK ACCESS SELECT ON sales.orders FOR USER dave')).toEqual({
      kind: 'check-access',
      privilege: 'SELECT',
      object: { kind: 'table', parts: ['sales', 'orders'] },
      user: 'dave',
    });
    expect(parseAdmin("SET TAG 'PII' ON COLUMN sales.orders.ssn")).toEqual({ kind: 'set-tag', tag: 'PII', column: ['sales', 'orders', 'ssn'] });
    expect(parseAdmin('UNSET TAG pii ON COLUMN lake.sales.orders.ssn')).toEqual({ kind: 'unset-tag', tag: 'PII', column: ['lake', 'sales', 'orders', 'ssn'] });
  });
  it("sqe's tag statements: SHOW TAGS ON, ALTER TABLE … ALTER COLUMN … SET / UNSET TAG", () => {
    expect(parseAdmin('SHOW TAGS ON lake.sales.orders')).toEqual({ kind: 'show-tags', table: ['lake', 'sales', 'orders'] });
    expect(parseAdmin('show tags on orders;')).toEqual({ kind: 'show-tags', table: ['orders'] });
    expect(parseAdmin("ALTER TABLE lake.sales.orders ALTER COLUMN ssn SET TAG pii = 'true'")).toEqual({ kind: 'set-tag', tag: 'PII', column: ['lake', 'sales', 'orders', 'ssn'], alterTable: true });
    expect(parseAdmin('ALTER TABLE orders MODIFY COLUMN "Ssn" SET TAG "Pii"')).toEqual({ kind: 'set-tag', tag: 'Pii', column: ['orders', 'Ssn'], alterTable: true });
    expect(parseAdmin('alter table sales.orders alter ssn unset tag pii')).toEqual({ kind: 'unset-tag', tag: 'PII', column: ['sales', 'orders', 'ssn'], alterTable: true });
    expect(fail("ALTER TABLE t ALTER COLUMN c SET TAG a = 'x', b = 'y'")).toMatchObject({ code: '0A000' });
    expect(fail('ALTER TABLE t ALTER COLUMN c UNSET TAG a = 1')).toMatchObject({ code: '42601' });
    expect(fail('SHOW TAGS ON a.b.c.d')).toMatchObject({ code: '42601' });
  });
  it('42601 with the position of the offending token', () => {
    expect(fail('DENY SELECT ON t TO')).toEqual({ code: '42601', message: 'syntax error at end of input', position: 20 });
    expect(fail('DENY SELECT ON t TO USER dave, ;')).toEqual({ code: '42601', message: 'syntax error at or near ";"', position: 32 });
    expect(fail('SHOW GRANTS FOR dave')).toEqual({ code: '42601', message: 'syntax error at or near "for"', position: 13 });
    expect(fail('CHECK ACCESS SELECT, INSERT ON t FOR USER u').position).toBe(20);
    expect(fail('DENY SELECT ON a.b.c.d TO u')).toMatchObject({ code: '42601', message: 'improper qualified name (too many dotted names): a.b.c.d' });
    expect(fail('DENY SELECT ON "t TO u')).toEqual({ code: '42601', message: 'unterminated quoted identifier', position: 16 });
    expect(fail('SET TAG x ON COLUMN a.b')).toMatchObject({ code: '42601' });
  });
  it('names Polaris would mis-read, and over-long names, are refused', () => {
    expect(fail('DENY SELECT ON "a/b" TO u')).toMatchObject({ code: '42602', position: 16 });
    expect(fail(`DENY SELECT ON t TO ${'x'.repeat(64)}`)).toMatchObject({ code: '42622' });
  });
});
