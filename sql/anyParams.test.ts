/**
 * Which bare parameters PostgreSQL cannot type ("any" and polymorphic arguments), as
 * the server refuses them at Parse (tests/integration/paramTypes.test.ts compares the
 * answers with a real PostgreSQL).
 */
import { untypableParams } from './anyParams.js';
import { loadParser, parseStatements } from './parse.js';

beforeAll(async () => {
  await loadParser();
});

const untypable = (sql: string) => Object.fromEntries(untypableParams(parseStatements(sql)[0]!.node));

describe('untypableParams', () => {
  it('names bare parameters of "any" functions and of polymorphic ones', () => {
    expect(untypable(`SELECT json_build_object('a', $1, $2, 1), concat($3), to_json($4), pg_catalog.jsonb_build_array($5)`)).toEqual({
      1: 'any',
      2: 'any',
      3: 'any',
      4: 'polymorphic',
      5: 'any',
    });
  });

  it('leaves out a parameter that is cast, inside another expression, or used anywhere else', () => {
    expect(untypable(`SELECT json_build_object('a', $1::text, 'b', coalesce($2, 'z'), 'c', $3), upper($4)`)).toEqual({ 3: 'any' });
    expect(untypable(`SELECT json_build_object('a', $1) FROM t WHERE x = $1`)).toEqual({});
    expect(untypable(`SELECT lower($1), myschema.concat($2)`)).toEqual({});
  });
});
