/** uuid_out: 8-4-4-4-12 lowercase hex of the 16 big-endian bytes. */
const HEX = Buffer.from('0123456789abcdef');

export const UUID_TEXT_LENGTH = 36;

/** Writes the text of 16 bytes at src[off..off+16). */
export function writeUuid(buf: Uint8Array, pos: number, src: Uint8Array, off: number): number {
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) buf[pos++] = 45;
    const b = src[off + i]!;
    buf[pos++] = HEX[b >> 4]!;
    buf[pos++] = HEX[b & 15]!;
  }
  return pos;
}

/** uuid_in accepts hex with optional dashes after each group of 4 and optional braces; null when malformed. */
export function parseUuidText(s: string): Buffer | null {
  let t = s.trim();
  if (t.startsWith('{') && t.endsWith('}')) t = t.slice(1, -1);
  const hex = t.replace(/-/g, '');
  if (hex.length !== 32 || !/^[0-9a-fA-F]+$/.test(hex) || t.startsWith('-') || t.endsWith('-') || t.includes('--')) return null;
  return Buffer.from(hex, 'hex');
}
