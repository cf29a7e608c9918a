/**
 * sql/emulation.ts MACRO_ARG_COPIES bounds how often any macro of the
 * emulation names one of its parameters (DuckDB copies the argument for each
 * mention; sql/limits.ts multiplies by it). Counted here on the definitions
 * themselves, over all overloads of a macro, as whole words: an upper bound.
 */
import { MACRO_ARG_COPIES } from '../sql/emulation.js';
import { macroStatements } from './pgCatalogMacros.js';

test('no macro names a parameter more often than MACRO_ARG_COPIES', () => {
  const counts: [string, string, number][] = [];
  for (const sql of macroStatements('owner')) {
    const m = /MACRO\s+\S+?\.(\w+)\(([^)]*)\)\s+AS\s+([^]*)$/.exec(sql);
    if (!m || /AS TABLE/.test(sql)) continue;
    const [, name, params, body] = m as unknown as [string, string, string, string];
    for (const p of params.split(',').map((s) => s.trim()).filter(Boolean)) {
      counts.push([name, p, (body.match(new RegExp(`\\b${p}\\b`, 'g')) ?? []).length]);
    }
  }
  expect(counts.length).toBeGreaterThan(40);
  const worst = counts.reduce((a, b) => (b[2] > a[2] ? b : a));
  expect(worst[2]).toBeLessThanOrEqual(MACRO_ARG_COPIES);
  // the bound is not slack: it is within a factor of two of the worst macro
  expect(worst[2] * 2).toBeGreaterThan(MACRO_ARG_COPIES);
});
