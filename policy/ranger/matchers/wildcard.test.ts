import { wildcardMatch, wildcardPrefixMatch } from './wildcard.js';

/** Oracle: the same pattern as a regular expression. */
function viaRegex(text: string, pattern: string): boolean {
  const src = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[\\s\\S]*').replace(/\?/g, '[\\s\\S]');
  return new RegExp(`^${src}$`).test(text);
}

function all(alphabet: string, maxLen: number): string[] {
  const out = [''];
  for (let i = 0; i < out.length; i++) if (out[i]!.length < maxLen) for (const c of alphabet) out.push(out[i]! + c);
  return out;
}

describe('wildcard', () => {
  const patterns = all('a*?', 4);
  const texts = all('ab', 4);

  test('wildcardMatch agrees with a regex on every short pattern and text', () => {
    for (const p of patterns) for (const t of texts) if (wildcardMatch(t, p) !== viaRegex(t, p)) throw new Error(`${t} ~ ${p}`);
  });

  test('wildcardPrefixMatch: some continuation of the text matches', () => {
    for (const p of patterns) {
      // A live pattern position is completed by at most |pattern| more characters.
      const continuations = all('ab', p.length);
      for (const t of texts) {
        const expected = continuations.some((c) => viaRegex(t + c, p));
        if (wildcardPrefixMatch(t, p) !== expected) throw new Error(`${t} prefix of ${p}: expected ${expected}`);
      }
    }
  });

  test('`*` spans separators and `?` is exactly one character', () => {
    expect(wildcardMatch('/a/b/c', '/a/*')).toBe(true);
    expect(wildcardMatch('ab', 'a?')).toBe(true);
    expect(wildcardMatch('a', 'a?')).toBe(false);
  });
});
