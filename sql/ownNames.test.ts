/**
 * Names from a user's SQL that are members of Object.prototype (`constructor`,
 * `toString`, `__proto__` …) are looked up like any other unknown name: the
 * same SQLSTATE and text as a name nothing defines (the control), never a hit
 * on a lookup table's prototype.
 */
import type { RelationCatalog } from './catalogView.js';
import { SqlError } from './errors.js';
import { ownRecord, ownTable } from './ownNames.js';
import { loadParser, parseStatements } from './parse.js';
import { planQuery, type QueryContext } from './query.js';

const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'];

const catalog: RelationCatalog = {
  listSchemas: () => ['public', 'sales'],
  getTable: () => undefined,
};

const ctx: QueryContext = {
  database: 'demo',
  searchPath: ['sales', 'public'],
  user: 'alice',
  settings: () => undefined,
  backendPid: 777,
  catalog,
};

beforeAll(async () => {
  await loadParser();
});

function answer(sql: string): { code: string; message: string } | 'planned' {
  try {
    planQuery(parseStatements(sql)[0]!, ctx);
    return 'planned';
  } catch (e) {
    if (e instanceof SqlError) return { code: e.code, message: e.message };
    throw e;
  }
}

/** The answer for `template` with the name, and the control's with `nosuch` put back in its place. */
function sameAsUnknown(template: (name: string) => string): void {
  const control = answer(template('nosuch'));
  expect(control).not.toBe('planned');
  for (const name of PROTOTYPE_NAMES) {
    const got = answer(template(name));
    const expected = control === 'planned' ? control : { ...control, message: control.message.split('nosuch').join(name) };
    expect([name, got]).toEqual([name, expected]);
  }
}

describe('names that are Object.prototype members', () => {
  it('relations in pg_catalog and information_schema, qualified and on the search path', () => {
    sameAsUnknown((n) => `SELECT * FROM pg_catalog."${n}"`);
    sameAsUnknown((n) => `SELECT * FROM information_schema."${n}"`);
    sameAsUnknown((n) => `SELECT * FROM "${n}"`);
  });

  it('types', () => {
    sameAsUnknown((n) => `SELECT 'x'::"${n}"`);
  });

  it('functions', () => {
    sameAsUnknown((n) => `SELECT "${n}"(1)`);
    sameAsUnknown((n) => `SELECT * FROM "${n}"(1)`);
  });

  it('control: a real catalog relation still plans', () => {
    expect(answer('SELECT relname FROM pg_catalog.pg_class')).toBe('planned');
  });
});

describe('ownTable / ownRecord', () => {
  it('answer only for their own entries', () => {
    const t = ownTable({ a: 1 });
    expect(['a' in t, 'constructor' in t, 'toString' in t, '__proto__' in t]).toEqual([true, false, false, false]);
    expect(t['constructor']).toBeUndefined();
    const r = ownRecord<number>();
    r['__proto__'] = 2;
    expect([Object.keys(r), r['__proto__'], Object.getPrototypeOf(r)]).toEqual([['__proto__'], 2, null]);
  });
});
