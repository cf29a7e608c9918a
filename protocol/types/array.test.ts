import { arrayText, parseArrayBinary, parseArrayText, writeArrayHeader } from './array.js';

describe('array literals', () => {
  it('array_in reads back what array_out writes (quotes, escapes, blanks, NULL vs "NULL")', () => {
    const alphabet = ['a', ' ', '"', '\\', ',', '{', '}', 'N', 'U', 'L', 'é', '\t', 'x'];
    let seed = 99;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let k = 0; k < 2000; k++) {
      const elems = Array.from({ length: rnd(5) }, () =>
        rnd(6) === 0 ? null : rnd(8) === 0 ? 'NULL' : Array.from({ length: rnd(6) }, () => alphabet[rnd(alphabet.length)]).join(''),
      );
      expect(parseArrayText(arrayText(elems))).toEqual(elems);
    }
  });

  it('keeps blanks inside unquoted elements and drops them around', () => {
    expect(parseArrayText(' { a b , c ,NULL,null, "" } ')).toEqual(['a b', 'c', null, null, '']);
  });

  it('refuses malformed literals and reports more dimensions separately', () => {
    for (const bad of ['', '1,2', '{1,2', '{1,,2}', '{"a}', '{a}x', '{a{b}']) expect(parseArrayText(bad)).toBeNull();
    expect(() => parseArrayText('{{1},{2}}')).toThrow(RangeError);
  });

  it('array_recv reads the array_send framing', () => {
    const b = Buffer.alloc(64);
    let p = writeArrayHeader(b, 0, 23, 2, true);
    p = b.writeInt32BE(4, p);
    p = b.writeInt32BE(7, p);
    p = b.writeInt32BE(-1, p);
    expect(parseArrayBinary(b.subarray(0, p))).toEqual({ elementOid: 23, items: [Buffer.from([0, 0, 0, 7]), null] });
    expect(parseArrayBinary(b.subarray(0, p - 1))).toBeNull();
    expect(parseArrayBinary(b.subarray(0, writeArrayHeader(b, 0, 25, 0, false)))).toEqual({ elementOid: 25, items: [] });
  });
});
