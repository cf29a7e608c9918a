/**
 * UTF-8 validation for client text, against Node's own strict decoder (an
 * implementation we did not write): the same byte strings are refused, and
 * the reported bytes follow PostgreSQL's report_invalid_encoding.
 */
import { decodeUtf8 } from './utf8.js';

const strict = new TextDecoder('utf-8', { fatal: true });
const accepts = (b: Uint8Array): boolean => {
  try {
    strict.decode(b);
    return !b.includes(0);
  } catch {
    return false;
  }
};
const ours = (b: Uint8Array): boolean => {
  try {
    decodeUtf8(b);
    return true;
  } catch {
    return false;
  }
};

test('agrees with a strict decoder on 20,000 random byte strings biased to multibyte sequences', () => {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 16;
  for (let n = 0; n < 20000; n++) {
    const b = new Uint8Array(1 + (next() % 6));
    for (let i = 0; i < b.length; i++) b[i] = [0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff][next() % 15]! ^ (next() % 2 ? 0 : next() % 64);
    expect([Buffer.from(b).toString('hex'), ours(b)]).toEqual([Buffer.from(b).toString('hex'), accepts(b)]);
  }
});

test("reports the bytes PostgreSQL reports: the announced length's bytes, as far as they go", () => {
  const message = (bytes: number[]) => {
    try {
      decodeUtf8(Buffer.from(bytes));
    } catch (e) {
      return (e as Error).message;
    }
    return 'ok';
  };
  expect(message([0x61, 0xc3, 0x28])).toBe('invalid byte sequence for encoding "UTF8": 0xc3 0x28');
  expect(message([0xff, 0x61])).toBe('invalid byte sequence for encoding "UTF8": 0xff');
  expect(message([0xe2, 0x82])).toBe('invalid byte sequence for encoding "UTF8": 0xe2 0x82');
  expect(message([0x61, 0x00])).toBe('invalid byte sequence for encoding "UTF8": 0x00');
  expect(message([0xf0, 0x9d, 0x84, 0x9e])).toBe('ok');
});
