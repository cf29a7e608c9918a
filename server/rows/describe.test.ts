import { ANY, DuckDBInstance, DuckDBTypeId, GEOMETRY, INTEGER, LIST, VARIANT } from '@duckdb/node-api';
import { binaryFormatSupported, duckTypeName, pgFieldFor } from './describe.js';

describe('RowDescription fields', () => {
  it('reads DuckDB types as DuckDB reports them, JSON alias included', async () => {
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    const r = await conn.run(`SELECT '{}'::JSON AS j, ['{}'::JSON] AS ja, 1::TINYINT AS t, 1.5::DECIMAL(15,2) AS d, {'a': 1} AS s, '01'::BIT AS b`);
    const [j, ja, t, d, s, b] = r.columnTypes();
    expect(j!.toString()).toBe('VARCHAR'); // why duckTypeName honours the alias
    expect(duckTypeName(j!)).toBe('JSON');
    expect(pgFieldFor('j', j!, 0)).toEqual({ name: 'j', typeOid: 114, typeLen: -1, typeMod: -1, format: 0, tableOid: 0, columnAttr: 0 });
    expect(pgFieldFor('ja', ja!, 1).typeOid).toBe(199);
    expect(pgFieldFor('t', t!, 1)).toMatchObject({ typeOid: 21, typeLen: 2, format: 1 });
    expect(pgFieldFor('d', d!, 0).typeMod).toBe(983046);
    expect(pgFieldFor('s', s!, 0).typeOid).toBe(114);
    expect(b!.typeId).toBe(DuckDBTypeId.BIT);
    for (const ty of [j, ja, t, d, s, b]) expect(binaryFormatSupported(ty!)).toBe(true);
  });

  it('sends types without a PostgreSQL counterpart as text, so binary works for them too', () => {
    expect(pgFieldFor('v', VARIANT, 1).typeOid).toBe(25);
    expect(pgFieldFor('g', GEOMETRY, 1).typeOid).toBe(25);
    expect(binaryFormatSupported(VARIANT)).toBe(true);
    expect(binaryFormatSupported(LIST(INTEGER))).toBe(true);
    expect(binaryFormatSupported(LIST(ANY))).toBe(false);
  });
});
