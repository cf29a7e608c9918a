/**
 * The types a statement's own casts give its parameters, the ANY/ALL array parameters,
 * and the left operand's type read from the engine's refusal to compare it with text.
 */
import { DuckDBTypeId } from '@duckdb/node-api';
import { loadParser, parseStatements } from './parse.js';
import { anyArrayParams, anyLeftType, declaredParamTypes } from './declaredParams.js';

beforeAll(async () => {
  await loadParser();
});

const node = (sql: string) => parseStatements(sql)[0]!.node;

describe('declaredParamTypes', () => {
  it("takes each parameter's first plain cast: PostgreSQL's OID and the engine type", () => {
    const d = declaredParamTypes(node(`SELECT $1::varchar, CAST($2 AS pg_catalog.int4), $3::regclass, $1::int8, $4::varchar(10), $5::int4[], $6::mytype`));
    expect([...d.keys()]).toEqual([1, 2, 3, 4]);
    expect(d.get(1)).toMatchObject({ oid: 1043 });
    expect(d.get(1)!.duck!.typeId).toBe(DuckDBTypeId.VARCHAR);
    expect(d.get(2)!.oid).toBe(23);
    expect(d.get(2)!.duck!.typeId).toBe(DuckDBTypeId.INTEGER);
    // regclass: the OID only (its text goes to the engine); a type modifier keeps the OID, not the engine type
    expect(d.get(3)).toEqual({ oid: 2205 });
    expect(d.get(4)).toEqual({ oid: 1043 });
  });
});

describe('anyArrayParams', () => {
  it('finds bare parameters on the right of ANY / ALL only', () => {
    expect([...anyArrayParams(node(`SELECT 1 WHERE a = ANY($1) AND b <> ALL($2) AND c = ANY($3::int[]) AND d = $4 AND e IN ($5)`))]).toEqual([1, 2]);
  });
});

describe('anyLeftType', () => {
  const err = (left: string) => new Error(`Binder Error: Cannot compare values of type ${left} and VARCHAR in IN/ANY/ALL clause - an explicit cast is required`);
  it("reads the left operand's type as a cast", () => {
    expect(anyLeftType(err('DATE'))).toEqual({ type: 'date' });
    expect(anyLeftType(err('INTEGER'))).toEqual({ type: 'int4' });
    expect(anyLeftType(err('TIMESTAMP WITH TIME ZONE'))).toEqual({ type: 'timestamptz' });
    expect(anyLeftType(err('DECIMAL(10,2)'))).toEqual({ type: 'numeric', typmods: [10, 2] });
  });
  it('is undefined for anything else', () => {
    expect(anyLeftType(err('STRUCT(a INTEGER)'))).toBeUndefined();
    expect(anyLeftType(new Error('Binder Error: Cannot compare values of type VARCHAR and INTEGER in IN/ANY/ALL clause'))).toBeUndefined();
    expect(anyLeftType('nothing')).toBeUndefined();
  });
});
