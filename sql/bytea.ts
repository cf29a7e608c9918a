/** bytea's text input, shared by the cast (sql/dialect/dialect.ts) and decode(…, 'escape') (sql/dialect/builtin.ts). */
import { SqlError } from './errors.js';

/** PostgreSQL's bytea input, as hex digits: hex format (\x0aff) or escape format (a\000b, \\ for a backslash). */
export function byteaInputToHex(text: string, position?: number): string {
  const invalid = () => new SqlError('22P02', 'invalid input syntax for type bytea', position);
  if (text.startsWith('\\x')) {
    const digits = text.slice(2).replace(/\s+/g, '');
    if (!/^([0-9a-fA-F]{2})*$/.test(digits)) throw invalid();
    return digits.toLowerCase();
  }
  const bytes: number[] = [];
  for (let i = 0; i < text.length; ) {
    if (text[i] !== '\\') {
      const ch = String.fromCodePoint(text.codePointAt(i)!);
      for (const b of Buffer.from(ch, 'utf8')) bytes.push(b);
      i += ch.length;
    } else if (text[i + 1] === '\\') {
      bytes.push(0x5c);
      i += 2;
    } else if (/^[0-3][0-7]{2}$/.test(text.slice(i + 1, i + 4))) {
      bytes.push(parseInt(text.slice(i + 1, i + 4), 8));
      i += 4;
    } else throw invalid();
  }
  return Buffer.from(bytes).toString('hex');
}
