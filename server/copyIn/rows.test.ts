import { describe, expect, test } from '@jest/globals';
import { CopyRowReader, MAX_RECORD_BYTES, type CopyFormat } from './rows.js';

const TEXT: CopyFormat = { format: 'text', header: false, delimiter: 0x09, nullText: Buffer.from('\\N'), quote: 0x22, escape: 0x22 };
const CSV: CopyFormat = { format: 'csv', header: true, delimiter: 0x2c, nullText: Buffer.from(''), quote: 0x22, escape: 0x22 };

/** Every row of `input`, fed in chunks of `size` bytes (so records, escapes and characters are split anywhere). */
function rows(f: CopyFormat, input: string, size: number) {
  const reader = new CopyRowReader(f);
  const bytes = Buffer.from(input, 'utf8');
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...reader.push(bytes.subarray(i, i + size)));
  out.push(...reader.end());
  return out.map((r) => [r.line, r.fields]);
}

describe('text format', () => {
  const input = 'a\\tb\t\\N\t\\\\N\n\\101\\x42\\x7\\b\\f\\n\\r\\v\\q\tü✓\n\t\n\\.\nignored\n';
  test.each([1, 2, 3, 7, 1000])('escapes, NULL compared before escapes, the end marker (chunks of %i bytes)', (size) => {
    expect(rows(TEXT, input, size)).toEqual([
      [1, ['a\tb', null, '\\N']],
      [2, ['AB\x07\b\f\n\r\vq', 'ü✓']],
      [3, ['', '']],
    ]);
  });

  test.each([1, 1000])('\\r\\n line ends throughout (chunks of %i bytes)', (size) => {
    expect(rows(TEXT, '1\tx\r\n2\ty\r\n', size)).toEqual([[1, ['1', 'x']], [2, ['2', 'y']]]);
  });

  test.each([
    ['1\tx\n2\ty\r\n', 'literal carriage return found in data', 2],
    ['1\tx\r\n2\ty\n', 'literal newline found in data', 2],
    ['1\ta\rb\n', 'literal carriage return found in data', 1],
  ])('a line end other than the first line\'s is 22P04 (%j)', (input, message, line) => {
    const reader = new CopyRowReader(TEXT);
    expect(() => reader.push(Buffer.from(input))).toThrow(expect.objectContaining({ code: '22P04', message }));
    expect(reader.lineNumber).toBe(line);
  });

  test('a last line without a newline is a row', () => {
    expect(rows(TEXT, '1\tx', 4)).toEqual([[1, ['1', 'x']]]);
  });

  test('bad UTF-8 is 22021', () => {
    const reader = new CopyRowReader(TEXT);
    expect(() => reader.push(Buffer.from([0x61, 0xff, 0x0a]))).toThrow(expect.objectContaining({ code: '22021' }));
  });
});

describe('CSV', () => {
  const input = 'id,name\n1,"a,b"\n2,,""\n3,"multi\nline ""q"""\n4,\\N\n';
  test.each([1, 3, 1000])('header skipped, quotes, doubled quotes, NULL only unquoted, quoted newlines (chunks of %i bytes)', (size) => {
    expect(rows(CSV, input, size)).toEqual([
      [2, ['1', 'a,b']],
      [3, ['2', null, '']],
      [4, ['3', 'multi\nline "q"']],
      [5, ['4', '\\N']],
    ]);
  });

  test('a carriage return inside quotes is data; outside them, on a \\n file, 22P04', () => {
    expect(rows({ ...CSV, header: false }, '1,"a\rb"\n', 1)).toEqual([[1, ['1', 'a\rb']]]);
    expect(() => new CopyRowReader({ ...CSV, header: false }).push(Buffer.from('1,a\rb\n'))).toThrow(expect.objectContaining({ code: '22P04', message: 'unquoted carriage return found in data' }));
  });

  test('an escape character other than the quote', () => {
    expect(rows({ ...CSV, header: false, escape: 0x5c }, '"a\\"b\\\\c",d\n', 2)).toEqual([[1, ['a"b\\c', 'd']]]);
  });

  test('an unterminated quoted field is 22P04', () => {
    const reader = new CopyRowReader({ ...CSV, header: false });
    reader.push(Buffer.from('1,"open\n'));
    expect(() => reader.end()).toThrow(expect.objectContaining({ code: '22P04', message: 'unterminated CSV quoted field' }));
  });
});

test('a record longer than the bound is 54000, a long one within it is one row', () => {
  const reader = new CopyRowReader({ ...CSV, header: false });
  const mb = Buffer.alloc(1024 * 1024, 0x61);
  reader.push(Buffer.from('1,"'));
  for (let i = 0; i < 16; i++) reader.push(mb);
  const [row] = reader.push(Buffer.from('"\n'));
  expect(row!.fields.map((f) => f!.length)).toEqual([1, 16 * 1024 * 1024]);
  const over = new CopyRowReader(TEXT);
  expect(() => {
    for (let i = 0; i <= MAX_RECORD_BYTES / mb.length; i++) over.push(mb);
  }).toThrow(expect.objectContaining({ code: '54000' }));
});
