import { PgError } from '../protocol/errors.js';
import { SqlError } from '../sql/errors.js';
import { toPgError } from './errors.js';

const mapped = (message: string) => {
  const e = toPgError(new Error(message), () => undefined);
  return { code: e.code, message: e.message };
};

describe('engine errors never quote a stored value', () => {
  it.each([
    ["Conversion Error: Could not convert string '111-11-1111' to INT32 when casting from source column ssn\n\nLINE 1: SELECT ...", '22P02', 'invalid input syntax for type integer'],
    ["Conversion Error: Could not convert string 'abc' to BOOL", '22P02', 'invalid input syntax for type boolean'],
    ["Conversion Error: Type INT32 with value 200 can't be cast because the value is out of range for the destination type INT8", '22003', 'smallint out of range'],
    ['Out of Range Error: Overflow in multiplication of INT32 (100000 * 100000)!', '22003', 'integer out of range'],
    ['Conversion Error: date field value out of range: "2020-13-45", expected format is (YYYY-MM-DD)', '22008', 'date/time field value out of range'],
    ['Conversion Error: Date out of range: 2016-2-31', '22008', 'date/time field value out of range'],
    ['Invalid Input Error: Could not parse string "2024-13-01" according to format specifier "%Y-%m-%d"\n2024-13-01\n     ^\nError: Month out of range, expected a value between 1 and 12', '22008', 'date/time field value out of range'],
    ['Invalid Input Error: Could not parse string "abc" according to format specifier "%Y-%m-%d"\nabc\n^\nError: Expected a number', '22007', 'invalid input syntax for type date/time'],
    ['Conversion Error: Casting value "123456.789" to type DECIMAL(4,2) failed: value is out of range!', '22003', 'numeric field overflow'],
    ['Invalid Input Error: numeric field overflow: stddev and variance are exact for numerics of at most 4 decimals (round the argument to 4 decimals, or cast it to double precision)', '22003', 'numeric field overflow: stddev and variance are exact for numerics of at most 4 decimals (round the argument to 4 decimals, or cast it to double precision)'],
  ])('%s', (engine, code, message) => {
    expect(mapped(engine)).toEqual({ code, message });
  });

  it('other messages of those classes keep no value', () => {
    const r = mapped(`Invalid Input Error: Could not parse string "4111 1111" according to format specifier "%d-%m"`);
    expect(r.code).toMatch(/^22/);
    expect(r.message).not.toMatch(/4111|1111/);
  });

  it('control: messages without values keep their text', () => {
    expect(mapped('Binder Error: Referenced column "nope" not found in FROM clause!')).toEqual({ code: '42703', message: 'column "nope" does not exist' });
    expect(toPgError(new PgError('42P01', 'relation "x" does not exist'), () => undefined).message).toBe('relation "x" does not exist');
  });
});

describe("a planner's error keeps its DETAIL and HINT", () => {
  it('DETAIL and HINT reach the client; an internal reason stays in the log, its reference after the DETAIL', () => {
    const e = toPgError(new SqlError('2BP01', 'cannot drop schema s because other objects depend on it', undefined, { detail: 'table t depends on schema s', hint: 'Use DROP ... CASCADE to drop the dependent objects too.' }), () => undefined);
    expect([e.code, e.message, e.detail, e.hint]).toEqual(['2BP01', 'cannot drop schema s because other objects depend on it', 'table t depends on schema s', 'Use DROP ... CASCADE to drop the dependent objects too.']);
    const logged: unknown[] = [];
    const internal = toPgError(new SqlError('0A000', 'x', undefined, { detail: 'why', internal: 'tree path' }), (err) => logged.push(err));
    expect(internal.detail).toMatch(/^why\nQuote reference \S+ to the administrator/);
    expect(JSON.stringify(internal)).not.toContain('tree path');
    expect(logged).toHaveLength(1);
  });
});
