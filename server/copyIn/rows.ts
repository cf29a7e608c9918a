/**
 * COPY FROM STDIN's input, split into rows as PostgreSQL's copyfromparse.c
 * splits it: text format (delimiter, the NULL string compared before escapes
 * are read, backslash escapes, the `\.` end marker) and CSV (quotes, the
 * escape character, a quoted field may span lines, the NULL string only
 * unquoted). Works on bytes, so a chunk may end anywhere, mid-character too.
 */
import { PgError, SqlState } from '../../protocol/errors.js';

export interface CopyFormat {
  format: 'text' | 'csv';
  header: boolean;
  delimiter: number;
  nullText: Buffer;
  quote: number;
  escape: number;
}

export interface CopyRow {
  /** PostgreSQL's line number for CONTEXT: the record's, counting the header. */
  line: number;
  /** The record as read, for CONTEXT (PostgreSQL's line_buf). */
  raw: string;
  fields: (string | null)[];
}

const NL = 0x0a;
const CR = 0x0d;
const BACKSLASH = 0x5c;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decode(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new PgError(SqlState.characterNotInRepertoire, 'invalid byte sequence for encoding "UTF8"');
  }
}

const TEXT_ESCAPES: Record<number, number> = { 0x62: 8, 0x66: 12, 0x6e: 10, 0x72: 13, 0x74: 9, 0x76: 11 };
const isOctal = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x37;
const hexValue = (b: number | undefined): number => {
  if (b === undefined) return -1;
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  return -1;
};

/** One text-format line's fields (CopyReadAttributesText). */
export function textFields(line: Buffer, f: CopyFormat): (string | null)[] {
  const fields: (string | null)[] = [];
  let i = 0;
  for (;;) {
    const start = i;
    const bytes: number[] = [];
    let escaped = false;
    while (i < line.length && line[i] !== f.delimiter) {
      const b = line[i++]!;
      if (b !== BACKSLASH || i >= line.length) {
        bytes.push(b);
        continue;
      }
      escaped = true;
      const c = line[i++]!;
      if (isOctal(c)) {
        let v = c - 0x30;
        for (let k = 0; k < 2 && isOctal(line[i]); k++) v = v * 8 + (line[i++]! - 0x30);
        bytes.push(v & 0xff);
      } else if (c === 0x78 && hexValue(line[i]) >= 0) {
        let v = hexValue(line[i++]);
        if (hexValue(line[i]) >= 0) v = v * 16 + hexValue(line[i++]);
        bytes.push(v);
      } else {
        bytes.push(TEXT_ESCAPES[c] ?? c);
      }
    }
    // The NULL string is compared with the field as written, before its escapes are read.
    const rawField = line.subarray(start, i);
    fields.push(rawField.equals(f.nullText) ? null : escaped ? decode(Uint8Array.from(bytes)) : decode(rawField));
    if (i >= line.length) return fields;
    i++; // the delimiter
  }
}

/** One CSV record's fields (CopyReadAttributesCSV); the record may hold quoted newlines. */
export function csvFields(record: Buffer, f: CopyFormat): (string | null)[] {
  const fields: (string | null)[] = [];
  let i = 0;
  for (;;) {
    const bytes: number[] = [];
    let quoted = false;
    const start = i;
    let inQuote = false;
    while (i < record.length) {
      const b = record[i]!;
      if (inQuote) {
        if (b === f.escape && (record[i + 1] === f.quote || record[i + 1] === f.escape) && (f.escape !== f.quote || record[i + 1] === f.quote)) {
          bytes.push(record[i + 1]!);
          i += 2;
          continue;
        }
        if (b === f.quote) {
          inQuote = false;
          i++;
          continue;
        }
        bytes.push(b);
        i++;
        continue;
      }
      if (b === f.delimiter) break;
      if (b === f.quote) {
        inQuote = quoted = true;
        i++;
        continue;
      }
      bytes.push(b);
      i++;
    }
    if (inQuote) throw new PgError(SqlState.badCopyFileFormat, 'unterminated CSV quoted field');
    const rawField = record.subarray(start, i);
    fields.push(!quoted && rawField.equals(f.nullText) ? null : decode(Uint8Array.from(bytes)));
    if (i >= record.length) return fields;
    i++;
  }
}

/**
 * Splits the stream into records. push() takes a chunk and returns the
 * complete rows in it; end() the last one. `\.` alone on a line ends the
 * data (what follows is ignored, as PostgreSQL ignores it).
 */
export class CopyRowReader {
  private pending: Buffer = Buffer.alloc(0);
  private line = 0;
  private done = false;

  constructor(private readonly f: CopyFormat) {}

  push(chunk: Buffer): CopyRow[] {
    if (this.done) return [];
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const rows: CopyRow[] = [];
    let from = 0;
    for (;;) {
      const end = this.recordEnd(from);
      if (end < 0) break;
      const next = end + 1;
      const record = this.pending.subarray(from, end > from && this.pending[end - 1] === CR ? end - 1 : end);
      from = next;
      const row = this.record(record);
      if (this.done) break;
      if (row) rows.push(row);
    }
    this.pending = this.done ? Buffer.alloc(0) : Buffer.from(this.pending.subarray(from));
    return rows;
  }

  end(): CopyRow[] {
    if (this.done || this.pending.length === 0) return [];
    if (this.f.format === 'csv' && this.recordEnd(0) < 0 && this.openQuote(this.pending)) {
      this.line++;
      throw new PgError(SqlState.badCopyFileFormat, 'unterminated CSV quoted field');
    }
    const record = this.pending[this.pending.length - 1] === CR ? this.pending.subarray(0, -1) : this.pending;
    this.pending = Buffer.alloc(0);
    const row = this.record(record);
    return row ? [row] : [];
  }

  /** The line number of the record read last (CONTEXT of an error in it). */
  get lineNumber(): number {
    return this.line;
  }

  private record(record: Buffer): CopyRow | null {
    this.line++;
    if (record.length === 2 && record[0] === BACKSLASH && record[1] === 0x2e) {
      this.done = true;
      return null;
    }
    if (this.line === 1 && this.f.header) return null;
    const raw = record.toString('utf8');
    const fields = this.f.format === 'text' ? textFields(record, this.f) : csvFields(record, this.f);
    return { line: this.line, raw, fields };
  }

  /** Where the record starting at `from` ends (its newline), -1 if not yet in the buffer. */
  private recordEnd(from: number): number {
    const buf = this.pending;
    if (this.f.format === 'text') return buf.indexOf(NL, from);
    let inQuote = false;
    for (let i = from; i < buf.length; i++) {
      const b = buf[i]!;
      if (inQuote) {
        if (b === this.f.escape && this.f.escape !== this.f.quote && i + 1 < buf.length) {
          i++;
          continue;
        }
        if (b === this.f.quote) inQuote = false;
        continue;
      }
      if (b === this.f.quote) inQuote = true;
      else if (b === NL) return i;
    }
    return -1;
  }

  private openQuote(buf: Buffer): boolean {
    let inQuote = false;
    for (let i = 0; i < buf.length; i++) {
      const b = buf[i]!;
      if (inQuote && b === this.f.escape && this.f.escape !== this.f.quote) i++;
      else if (b === this.f.quote) inQuote = !inQuote;
    }
    return inQuote;
  }
}
