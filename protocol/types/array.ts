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

/**
 * array_in for one-dimensional arrays: '{1,2,NULL}', '{"a b","x\\"y"}',
 * optional '[1:3]=' bounds decoration. Elements come back as their text
 * (null for an unquoted NULL), to be read by the element type's input
 * function. Returns null when the literal is malformed; throws RangeError for
 * more than one dimension (the caller reports it as unsupported).
 */
export function parseArrayText(s: string): (string | null)[] | null {
  const isSpace = (ch: string | undefined): boolean => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\v' || ch === '\f';
  let i = 0;
  const n = s.length;
  const ws = (): void => {
    while (i < n && isSpace(s[i])) i++;
  };
  ws();
  if (s[i] === '[') {
    const eq = s.indexOf('=', i);
    if (eq < 0 || !/^(\[-?\d+:-?\d+\])+\s*$/.test(s.slice(i, eq).trim())) return null;
    i = eq + 1;
    ws();
  }
  if (s[i] !== '{') return null;
  i++;
  ws();
  const out: (string | null)[] = [];
  if (s[i] === '}') {
    i++;
    ws();
    return i === n ? out : null;
  }
  for (;;) {
    ws();
    if (s[i] === '{') throw new RangeError('multidimensional array');
    let text = '';
    let blanks = '';
    let inQuotes = false;
    // Any quote or backslash makes the element literal text (so "NULL" is a string, not NULL).
    let literal = false;
    while (i < n && (inQuotes || (s[i] !== ',' && s[i] !== '}'))) {
      const ch = s[i]!;
      if (ch === '\\') {
        if (i + 1 >= n) return null;
        text += blanks + s[i + 1]!;
        blanks = '';
        literal = true;
        i += 2;
      } else if (ch === '"') {
        inQuotes = !inQuotes;
        text += blanks;
        blanks = '';
        literal = true;
        i++;
      } else if (!inQuotes && ch === '{') {
        return null;
      } else if (!inQuotes && isSpace(ch)) {
        // Blanks inside an unquoted element are kept, trailing ones dropped.
        blanks += ch;
        i++;
      } else {
        text += blanks + ch;
        blanks = '';
        i++;
      }
    }
    if (inQuotes || i >= n || (!literal && text === '')) return null;
    out.push(!literal && text.toUpperCase() === 'NULL' ? null : text);
    if (s[i] === ',') {
      i++;
      continue;
    }
    i++; // '}'
    ws();
    return i === n ? out : null;
  }
}

/** array_recv for one-dimensional arrays; null when malformed, RangeError for more dimensions. */
export function parseArrayBinary(b: Buffer): { elementOid: number; items: (Buffer | null)[] } | null {
  if (b.length < 12) return null;
  const ndim = b.readInt32BE(0);
  const flags = b.readInt32BE(4);
  const elementOid = b.readUInt32BE(8);
  if (ndim < 0 || (flags !== 0 && flags !== 1)) return null;
  if (ndim > 1) throw new RangeError('multidimensional array');
  if (ndim === 0) return b.length === 12 ? { elementOid, items: [] } : null;
  if (b.length < 20) return null;
  const len = b.readInt32BE(12);
  if (len < 0) return null;
  const items: (Buffer | null)[] = [];
  let p = 20;
  for (let k = 0; k < len; k++) {
    if (p + 4 > b.length) return null;
    const l = b.readInt32BE(p);
    p += 4;
    if (l === -1) {
      items.push(null);
      continue;
    }
    if (l < 0 || p + l > b.length) return null;
    items.push(b.subarray(p, p + l));
    p += l;
  }
  return p === b.length ? { elementOid, items } : null;
}
