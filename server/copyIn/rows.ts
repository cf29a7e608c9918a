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

/** A record longer than this is refused (PostgreSQL's bound is 1 GB; a gateway keeps memory smaller). */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/**
 * Splits the stream into records. push() takes a chunk and returns the
 * complete rows in it; end() the last one. `\.` alone on a line ends the
 * data (what follows is ignored, as PostgreSQL ignores it). A record not yet
 * complete is kept as the chunks it arrived in, with where the scan for its
 * end stopped, so a long one costs no more than its bytes.
 */
export class CopyRowReader {
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** CSV: the scan of the incomplete record stopped inside quotes / right after an escape character. */
  private inQuote = false;
  private skipNext = false;
  private line = 0;
  private done = false;
  /** The data's line end, as its first line ends. */
  private eol: 'lf' | 'crlf' | undefined;

  constructor(private readonly f: CopyFormat) {}

  push(chunk: Buffer): CopyRow[] {
    const rows: CopyRow[] = [];
    let from = 0;
    while (!this.done && from < chunk.length) {
      const end = this.recordEnd(chunk, from);
      if (end < 0) {
        this.keep(chunk.subarray(from));
        break;
      }
      const record = this.take(chunk.subarray(from, end));
      from = end + 1;
      const row = this.record(record, true);
      if (row) rows.push(row);
    }
    return rows;
  }

  end(): CopyRow[] {
    if (this.done || this.partBytes === 0) return [];
    if (this.f.format === 'csv' && this.inQuote) {
      this.line++;
      throw new PgError(SqlState.badCopyFileFormat, 'unterminated CSV quoted field');
    }
    const record = this.take(Buffer.alloc(0));
    const row = this.record(record, false);
    return row ? [row] : [];
  }

  /** The line number of the record read last (CONTEXT of an error in it). */
  get lineNumber(): number {
    return this.line;
  }

  private keep(part: Buffer): void {
    this.partBytes += part.length;
    if (this.partBytes > MAX_RECORD_BYTES) {
      throw new PgError(SqlState.programLimitExceeded, `COPY record is too long: more than ${MAX_RECORD_BYTES / (1024 * 1024)} MB in one line`, {
        hint: 'Split the data into smaller rows, or write the value with INSERT.',
      });
    }
    // a copy: the chunk's buffer may be reused by the reader of the socket
    this.parts.push(Buffer.from(part));
  }

  /** The record: what was kept of it and its last piece; the scan starts afresh. */
  private take(last: Buffer): Buffer {
    const record = this.parts.length ? Buffer.concat([...this.parts, last]) : last;
    this.parts = [];
    this.partBytes = 0;
    this.inQuote = false;
    this.skipNext = false;
    return record;
  }

  /** The record's bytes without its line end, once the line end is checked as PostgreSQL checks it. */
  private record(withEnd: Buffer, newline: boolean): CopyRow | null {
    this.line++;
    const crlf = withEnd[withEnd.length - 1] === CR;
    const record = crlf ? withEnd.subarray(0, -1) : withEnd;
    this.checkLineEnd(record, newline ? crlf : null);
    if (record.length === 2 && record[0] === BACKSLASH && record[1] === 0x2e) {
      this.done = true;
      return null;
    }
    if (this.line === 1 && this.f.header) return null;
    const raw = record.toString('utf8');
    const fields = this.f.format === 'text' ? textFields(record, this.f) : csvFields(record, this.f);
    return { line: this.line, raw, fields };
  }

  /**
   * PostgreSQL takes the first line's end (\n or \r\n) for every line: a
   * carriage return elsewhere, or the other line end, is 22P04 (in CSV only
   * outside quotes). `crlf`: how this line ended (null: the data's last line,
   * without a line end).
   */
  private checkLineEnd(record: Buffer, crlf: boolean | null): void {
    if (crlf !== null) this.eol ??= crlf ? 'crlf' : 'lf';
    const csv = this.f.format === 'csv';
    if (crlf === false && this.eol === 'crlf') {
      throw new PgError(SqlState.badCopyFileFormat, csv ? 'unquoted newline found in data' : 'literal newline found in data', {
        hint: csv ? 'Use quoted CSV field to represent newline.' : 'Use "\\n" to represent newline.',
      });
    }
    const crBeforeNewline = crlf === true && this.eol === 'lf';
    if (!crBeforeNewline && (!record.includes(CR) || this.firstBareCr(record) < 0)) return;
    throw new PgError(SqlState.badCopyFileFormat, csv ? 'unquoted carriage return found in data' : 'literal carriage return found in data', {
      hint: csv ? 'Use quoted CSV field to represent carriage return.' : 'Use "\\r" to represent carriage return.',
    });
  }

  /** Where the first carriage return outside an escape (text) or quotes (CSV) is, -1 if none. */
  private firstBareCr(record: Buffer): number {
    const csv = this.f.format === 'csv';
    let inQuote = false;
    for (let i = 0; i < record.length; i++) {
      const b = record[i]!;
      if (!csv) {
        if (b === BACKSLASH) i++;
        else if (b === CR) return i;
        continue;
      }
      if (inQuote && b === this.f.escape && this.f.escape !== this.f.quote) i++;
      else if (b === this.f.quote) inQuote = !inQuote;
      else if (b === CR && !inQuote) return i;
    }
    return -1;
  }

  /** Where in `chunk` the current record ends (its newline), -1 if not in this chunk; the scan's state carries over. */
  private recordEnd(chunk: Buffer, from: number): number {
    if (this.f.format === 'text') return chunk.indexOf(NL, from);
    const { quote, escape } = this.f;
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.skipNext) {
        this.skipNext = false;
        continue;
      }
      if (this.inQuote) {
        if (b === escape && escape !== quote) this.skipNext = true;
        else if (b === quote) this.inQuote = false;
        continue;
      }
      if (b === quote) this.inQuote = true;
      else if (b === NL) return i;
    }
    return -1;
  }
}
