/**
 * array_out element quoting and array_send framing.
 * Text: '{1,2,3}', NULL elements as NULL, an element is double-quoted when it
 * is empty, equals NULL (any case), or contains '{', '}', ',', '"', '\' or
 * whitespace, and '"' and '\' inside quotes are backslash-escaped
 * (arrayfuncs.c array_out, with typdelim ',' for every type we emit).
 */

/** Whether array_out would quote these element bytes. */
export function needsArrayQuote(buf: Uint8Array, start: number, end: number): boolean {
  if (start === end) return true;
  if (end - start === 4) {
    // "NULL" in any case (pg_strcasecmp).
    const a = buf[start]! | 0x20, b = buf[start + 1]! | 0x20, c = buf[start + 2]! | 0x20, d = buf[start + 3]! | 0x20;
    if (a === 110 && b === 117 && c === 108 && d === 108) return true;
  }
  for (let i = start; i < end; i++) {
    const ch = buf[i]!;
    if (ch === 123 || ch === 125 || ch === 44 || ch === 34 || ch === 92) return true;
    // array_isspace: space, \t, \n, \r, \v, \f
    if (ch === 32 || (ch >= 9 && ch <= 13)) return true;
  }
  return false;
}

/**
 * Quote in place the element text at buf[start..end): the bytes are moved
 * right to make room; returns the new end. The caller reserves
 * 2 + 2 * (end - start) bytes after start.
 */
export function quoteArrayElementInPlace(buf: Uint8Array, start: number, end: number): number {
  let extra = 0;
  for (let i = start; i < end; i++) if (buf[i] === 34 || buf[i] === 92) extra++;
  const newEnd = end + extra + 2;
  let w = newEnd - 1;
  buf[w--] = 34;
  for (let r = end - 1; r >= start; r--) {
    const ch = buf[r]!;
    buf[w--] = ch;
    if (ch === 34 || ch === 92) buf[w--] = 92;
  }
  buf[w] = 34;
  return newEnd;
}

/** Text form of an array of already-formatted elements (null = SQL NULL); for callers off the hot path. */
export function arrayText(elements: readonly (string | null)[]): string {
  const parts = elements.map((e) => {
    if (e === null) return 'NULL';
    const b = Buffer.from(e, 'utf8');
    return needsArrayQuote(b, 0, b.length) ? `"${e.replace(/(["\\])/g, '\\$1')}"` : e;
  });
  return `{${parts.join(',')}}`;
}

/**
 * array_send header for a one-dimensional array: ndim, has-null flag, element
 * OID, then (length, lower bound 1). An empty array is ndim 0 with no
 * dimension, as PostgreSQL sends it. Returns the header length (12 or 20).
 */
export function writeArrayHeader(buf: Buffer, pos: number, elementOid: number, length: number, hasNull: boolean): number {
  buf.writeInt32BE(length === 0 ? 0 : 1, pos);
  buf.writeInt32BE(hasNull ? 1 : 0, pos + 4);
  buf.writeUInt32BE(elementOid, pos + 8);
  if (length === 0) return pos + 12;
  buf.writeInt32BE(length, pos + 12);
  buf.writeInt32BE(1, pos + 16);
  return pos + 20;
}
