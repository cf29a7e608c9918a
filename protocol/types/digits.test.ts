import { int64ToNumber, writeBigInt, writeInt, writeMinPadded, writePadded } from './digits.js';

const text = (write: (b: Uint8Array, p: number) => number): string => {
  const b = Buffer.alloc(64);
  return b.toString('latin1', 3, write(b, 3));
};

describe('digit writers', () => {
  const samples = [0, 1, 9, 10, 99, 100, 2147483647, 2147483648, -2147483648, -1, 4294967295, 9007199254740991, -9007199254740991, 1e15, 123456789012];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  // The contract is |v| < 2^53: at most 2^30 * 2^22.
  for (let k = 0; k < 500; k++) samples.push((rnd() - 1073741824) * (k % 3 === 0 ? rnd() % 4194304 : 1));

  it('writeInt prints what String() prints', () => {
    for (const v of samples) expect(text((b, p) => writeInt(b, p, v))).toBe(String(v));
  });

  it('writeInt splits at nine digits without losing or padding wrongly', () => {
    const edges = [2 ** 31, 2 ** 32, 1e9, 1e9 + 1, 999999999999, 1e12 + 1000003, 2 ** 53 - 1, -(2 ** 53 - 1), -2147483649, 10000000000000000 / 10 + 7];
    for (const v of edges) expect(text((b, p) => writeInt(b, p, v))).toBe(String(v));
  });

  it('writeBigInt prints what toString() prints', () => {
    for (const v of [0n, -1n, 2n ** 127n - 1n, -(2n ** 127n), 18446744073709551615n]) expect(text((b, p) => writeBigInt(b, p, v))).toBe(v.toString());
  });

  it('pads to exactly / at least the width', () => {
    expect(text((b, p) => writePadded(b, p, 7, 2))).toBe('07');
    expect(text((b, p) => writePadded(b, p, 5, 6))).toBe('000005');
    expect(text((b, p) => writeMinPadded(b, p, 44, 4))).toBe('0044');
    expect(text((b, p) => writeMinPadded(b, p, 294247, 4))).toBe('294247');
  });

  it('int64ToNumber agrees with BigInt64 and refuses values beyond 2^53', () => {
    const view = new DataView(new ArrayBuffer(8));
    for (const v of [0n, -1n, 1n, 2n ** 53n - 1n, -(2n ** 53n) + 1n, 2n ** 53n, -(2n ** 63n), 2n ** 63n - 1n, 4294967296n, -4294967297n]) {
      view.setBigInt64(0, v, true);
      const n = int64ToNumber(view.getInt32(0, true), view.getInt32(4, true));
      if (v >= -(2n ** 53n) && v < 2n ** 53n) expect(n).toBe(Number(v));
      else expect(n).toBeNaN();
    }
  });
});
