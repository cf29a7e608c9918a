/**
 * jsonbText's own limits (its output against PostgreSQL's bytes is
 * server/rows/encoder.pg.test.ts's `presented` cases and the fidelity corpus):
 * nesting past its depth and text that is not JSON come back as they are,
 * without exhausting the stack.
 */
import { jsonbText, numericText } from './jsonbText.js';

describe('jsonbText', () => {
  it('returns a value nested deeper than it reorders as written, without overflowing the stack', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(jsonbText(deep)).toBe(deep);
  });
  it('returns text that is not JSON as it is', () => {
    for (const bad of ['{"a":1', '[1,]', '"\\x"', 'nul', '{"a" 1}', '1 2']) expect(jsonbText(bad)).toBe(bad);
  });
  it('reorders a value within its depth', () => {
    const nested = '['.repeat(500) + '{"bb":1,"a":2}' + ']'.repeat(500);
    expect(jsonbText(nested)).toBe('['.repeat(500) + '{"a": 2, "bb": 1}' + ']'.repeat(500));
  });
});

describe('numericText', () => {
  it('writes an exponent out and drops the sign of zero, keeping the scale', () => {
    // numeric_in's rule: scale = digits after the point minus the exponent, never below 0
    expect(['1e2', '1.5e-3', '1.50E1', '-0', '-0.00', '0e5', '12', '-1.0e-2'].map(numericText)).toEqual(['100', '0.0015', '15.0', '0', '0.00', '0', '12', '-0.010']);
  });
});
