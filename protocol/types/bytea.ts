/** bytea_out in hex form ('\x' + lowercase hex, bytea_output = 'hex') and byteain for parameters. */
import { PgError, SqlState } from '../errors.js';

const HEX = Buffer.from('0123456789abcdef');

/** Writes '\x' and two hex digits per byte; needs 2 + 2 * src.length bytes of room. */
export function writeByteaHex(buf: Uint8Array, pos: number, src: Uint8Array): number {
  buf[pos++] = 92; // '\'
  buf[pos++] = 120; // 'x'
  for (let i = 0; i < src.length; i++) {
    const b = src[i]!;
    buf[pos++] = HEX[b >> 4]!;
    buf[pos++] = HEX[b & 15]!;
  }
  return pos;
}

/** byteain: '\x' hex (whitespace between pairs allowed) or the escape form (\\, \ooo); PostgreSQL's errors. */
export function parseByteaText(s: string): Buffer {
  if (s.startsWith('\\x')) {
    const hex = s.slice(2).replace(/[ \t\n\r]/g, '');
    const bad = /[^0-9a-fA-F]/.exec(hex);
    if (bad) throw new PgError(SqlState.invalidParameterValue, `invalid hexadecimal digit: "${bad[0]}"`);
    if (hex.length % 2 !== 0) throw new PgError(SqlState.invalidParameterValue, 'invalid hexadecimal data: odd number of digits');
    return Buffer.from(hex, 'hex');
  }
  const out: number[] = [];
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c !== 92) {
      const enc = Buffer.from(s[i]!, 'utf8');
      for (const b of enc) out.push(b);
      i++;
    } else if (s[i + 1] === '\\') {
      out.push(92);
      i += 2;
    } else if (/^[0-3][0-7][0-7]$/.test(s.slice(i + 1, i + 4))) {
      out.push(parseInt(s.slice(i + 1, i + 4), 8));
      i += 4;
    } else {
      throw new PgError(SqlState.invalidTextRepresentation, 'invalid input syntax for type bytea');
    }
  }
  return Buffer.from(out);
}
