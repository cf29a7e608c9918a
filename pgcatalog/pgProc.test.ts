/**
 * pg_proc lists what lakegate accepts: every allowlisted function name has PostgreSQL's rows in
 * pgcatalog/pgBuiltins.ts, and no row names a function lakegate refuses. (That the rows are
 * PostgreSQL's own is checked against a real PostgreSQL in pgCatalog.diff.test.ts.)
 */
import { ALLOWED_FUNCTION_NAMES, isAllowedFunction } from '../sql/functions.js';
import { SET_RETURNING_FUNCTIONS } from '../sql/setReturning.js';
import { PG_KEYWORDS, PG_PROC_ROWS } from './pgBuiltins.js';

/** Allowed names PostgreSQL has no pg_proc row for: SQL syntax, and lakegate's own output helpers. */
const NOT_IN_PG_PROC = new Set(['current_catalog', 'current_role', 'regclass_out', 'regtype_out', 'regnamespace_out']);

describe('pg_proc rows', () => {
  it('every allowlisted function has PostgreSQL rows (run scripts/gen-pg-proc.mjs after changing the allowlist)', () => {
    const listed = new Set(PG_PROC_ROWS.map((r) => r[1]));
    const missing = [...ALLOWED_FUNCTION_NAMES].filter((n) => !listed.has(n) && !NOT_IN_PG_PROC.has(n)).sort();
    expect(missing).toEqual([]);
  });

  it('lists only functions lakegate accepts', () => {
    const refused = PG_PROC_ROWS.filter((r) => !isAllowedFunction([r[1]], false) && !isAllowedFunction([r[1]], true)).map((r) => r[1]);
    expect(refused).toEqual([]);
    // control: the check does refuse a name off the allowlist
    expect(isAllowedFunction(['read_parquet'], true) || isAllowedFunction(['read_parquet'], false)).toBe(false);
  });

  it('one row per OID, each with its signature texts', () => {
    expect(new Set(PG_PROC_ROWS.map((r) => r[0])).size).toBe(PG_PROC_ROWS.length);
    for (const r of PG_PROC_ROWS) {
      expect(r[18].length).toBe(r[15]); // proargtypes has pronargs entries
      expect(typeof r[23]).toBe('string'); // pg_get_function_result
    }
  });

  it("sql/setReturning.ts's set-returning functions are exactly the rows with proretset (regenerate both together)", () => {
    const retset = new Set(PG_PROC_ROWS.filter((r) => r[12]).map((r) => r[1]));
    expect([...SET_RETURNING_FUNCTIONS].sort()).toEqual([...retset].sort());
    // a name is set-returning in every row or in none: the placement check goes by name
    expect(PG_PROC_ROWS.filter((r) => !r[12] && retset.has(r[1])).map((r) => r[1])).toEqual([]);
    // control: a scalar function is not among them
    expect(SET_RETURNING_FUNCTIONS.has('regexp_replace')).toBe(false);
  });

  it('keywords: PostgreSQL 15 has about 460, and select is reserved', () => {
    expect(PG_KEYWORDS.length).toBeGreaterThan(400);
    expect(PG_KEYWORDS.find((k) => k[0] === 'select')?.[1]).toBe('R');
  });
});
