/**
 * JSON string escaping in place, for struct/map/union values rendered as json
 * text (a string value's escaping: sql/jsonbText.ts jsonString).
 */

const HEX = '0123456789abcdef';

/**
 * JSON-quote in place the UTF-8 text at buf[start..end): bytes move right to
 * make room for the quotes and escapes; returns the new end. The caller
 * reserves 5 * (end - start) + 2 bytes after start (\u00XX is 6 bytes for 1).
 */
export function jsonQuoteInPlace(buf: Uint8Array, start: number, end: number): number {
  let extra = 0;
  for (let i = start; i < end; i++) {
    const c = buf[i]!;
    if (c === 34 || c === 92 || c === 8 || c === 9 || c === 10 || c === 12 || c === 13) extra += 1;
    else if (c < 0x20) extra += 5;
  }
  const newEnd = end + extra + 2;
  let w = newEnd - 1;
  buf[w--] = 34;
  for (let r = end - 1; r >= start; r--) {
    const c = buf[r]!;
    if (c >= 0x20 && c !== 34 && c !== 92) {
      buf[w--] = c;
      continue;
    }
    switch (c) {
      case 34: buf[w--] = 34; buf[w--] = 92; break;
      case 92: buf[w--] = 92; buf[w--] = 92; break;
      case 8: buf[w--] = 98; buf[w--] = 92; break;
      case 9: buf[w--] = 116; buf[w--] = 92; break;
      case 10: buf[w--] = 110; buf[w--] = 92; break;
      case 12: buf[w--] = 102; buf[w--] = 92; break;
      case 13: buf[w--] = 114; buf[w--] = 92; break;
      default:
        buf[w--] = HEX.charCodeAt(c & 15);
        buf[w--] = HEX.charCodeAt(c >> 4);
        buf[w--] = 48;
        buf[w--] = 48;
        buf[w--] = 117;
        buf[w--] = 92;
    }
  }
  buf[w] = 34;
  return newEnd;
}
