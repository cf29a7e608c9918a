import { numericBinary, parseNumericBinary, parseNumericText, scaledText, writeNumericBinary, writeScaled } from './numeric.js';

describe('numeric', () => {
  let s = 12345;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648);
  const samples: [number, number][] = [[0, 0], [0, 2], [5, 2], [-5, 2], [10000, 0], [100000000, 4], [-9007199254740991, 6], [1, 12]];
  for (let k = 0; k < 2000; k++) samples.push([(rnd() - 1073741824) * (rnd() % 4096), rnd() % 13]);

  it('the Number fast paths agree with the bigint/string paths', () => {
    for (const [v, scale] of samples) {
      const b = Buffer.alloc(64);
      expect(b.toString('latin1', 0, writeScaled(b, 0, v, scale))).toBe(scaledText(BigInt(v), scale));
      const end = writeNumericBinary(b, 0, v, scale);
      expect(b.subarray(0, end).toString('hex')).toBe(numericBinary(BigInt(v), scale).toString('hex'));
    }
  });

  it('binary and text forms read back to the same value', () => {
    for (const [v, scale] of samples) {
      expect(parseNumericBinary(numericBinary(BigInt(v), scale))).toEqual({ kind: 'finite', unscaled: BigInt(v), scale });
      expect(parseNumericText(scaledText(BigInt(v), scale))).toEqual({ kind: 'finite', unscaled: BigInt(v), scale });
    }
  });
});
