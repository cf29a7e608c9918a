/**
 * Client text must be valid UTF-8, as PostgreSQL checks it (pg_verify_mbstr):
 * an invalid sequence, or a NUL byte, is 22021 with the offending bytes in
 * PostgreSQL's words — never silently replaced by U+FFFD.
 */
import { isUtf8 } from 'node:buffer';
import { PgError, SqlState } from '../errors.js';

/** pg_utf_mblen: the length a lead byte announces (1 for a byte that cannot lead). */
function announcedLength(b: number): number {
  if ((b & 0x80) === 0) return 1;
  if ((b & 0xe0) === 0xc0) return 2;
  if ((b & 0xf0) === 0xe0) return 3;
  if ((b & 0xf8) === 0xf0) return 4;
  return 1;
}

/** Index of the first invalid sequence (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF), or -1. */
function firstInvalid(buf: Uint8Array): number {
  for (let i = 0; i < buf.length; ) {
    const b = buf[i]!;
    if (b === 0) return i;
    if (b < 0x80) {
      i++;
      continue;
    }
    const n = announcedLength(b);
    if (n === 1 || i + n > buf.length) return i;
    const b1 = buf[i + 1]!;
    // The second byte's range depends on the lead byte (pg_utf8_islegal).
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    if (b < 0xc2 || b > 0xf4 || b1 < lo || b1 > hi) return i;
    for (let k = 2; k < n; k++) if ((buf[i + k]! & 0xc0) !== 0x80) return i;
    i += n;
  }
  return -1;
}

/** PostgreSQL's report_invalid_encoding: the announced length's bytes (at most 8, at most what is there). */
export function invalidByteSequence(buf: Uint8Array, at: number): PgError {
  const n = Math.min(announcedLength(buf[at]!), buf.length - at, 8);
  const bytes = [...buf.subarray(at, at + n)].map((b) => `0x${b.toString(16).padStart(2, '0')}`).join(' ');
  return new PgError(SqlState.characterNotInRepertoire, `invalid byte sequence for encoding "UTF8": ${bytes}`);
}

/** The text of bytes a client sent, or 22021. */
export function decodeUtf8(buf: Uint8Array): string {
  if (!isUtf8(buf) || buf.includes(0)) {
    const at = firstInvalid(buf);
    if (at >= 0) throw invalidByteSequence(buf, at);
  }
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8');
}
