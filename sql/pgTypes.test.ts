import { pgTypeForDuckDB } from './pgTypes.js';

describe('pgTypeForDuckDB', () => {
  it('maps scalars to the OIDs of reference/pg-clients.md §6', () => {
    expect(pgTypeForDuckDB('INTEGER')).toMatchObject({ oid: 23, len: 4, typmod: -1 });
    expect(pgTypeForDuckDB('BIGINT')).toMatchObject({ oid: 20, len: 8 });
    expect(pgTypeForDuckDB('TIMESTAMP WITH TIME ZONE')).toMatchObject({ oid: 1184 });
    expect(pgTypeForDuckDB('HUGEINT')).toMatchObject({ oid: 1700, typmod: -1 });
  });

  it('computes the numeric typmod as PostgreSQL does (numeric(15,2) = 983046)', () => {
    expect(pgTypeForDuckDB('DECIMAL(15,2)')).toMatchObject({ oid: 1700, typmod: 983046, formatted: 'numeric(15,2)' });
  });

  it('maps lists to array OIDs and nested or composite types to json', () => {
    expect(pgTypeForDuckDB('INTEGER[]')).toMatchObject({ oid: 1007, typname: '_int4', formatted: 'integer[]' });
    expect(pgTypeForDuckDB('VARCHAR[3]')).toMatchObject({ oid: 1009 });
    expect(pgTypeForDuckDB('INTEGER[][]')).toMatchObject({ oid: 114 });
    expect(pgTypeForDuckDB('STRUCT(a INTEGER)')).toMatchObject({ oid: 114 });
  });
});
