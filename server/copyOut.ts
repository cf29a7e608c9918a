/**
 * COPY … TO STDOUT: the statement's options as PostgreSQL checks them, and
 * the rows of a portal turned into CopyData in text, CSV or binary format.
 * The portal's own row encoder makes each value (text output for text and
 * CSV, the binary send format for binary), so COPY prints values exactly as
 * a query would; this module only frames and escapes them.
 */
import { PgError, SqlState } from '../protocol/errors.js';
import { MessageWriter } from '../protocol/writer.js';
import type { Fields, PgNode } from '../sql/walk.js';
import type { RowSink } from './portal.js';

export interface CopyOptions {
  format: 'text' | 'csv' | 'binary';
  header: boolean;
  delimiter: number;
  nullText: Buffer;
  quote: number;
  escape: number;
  /** Columns whose non-NULL values are always quoted (CSV), by name; '*' for all. */
  forceQuote: Set<string> | '*';
  /** COPY FROM (CSV): columns whose NULL string is read as that text, and whose quoted NULL string is NULL. */
  forceNotNull: string[];
  forceNull: string[];
}

const syntax = (message: string) => new PgError(SqlState.syntaxError, message);

function optionText(el: Fields, name: string): string {
  const arg = el['arg'] as PgNode | undefined;
  if (!arg) throw syntax(`${name} requires a parameter`);
  if (arg['String']) return String(arg['String']['sval'] ?? '');
  if (arg['Integer']) return String(arg['Integer']['ival'] ?? 0);
  if (arg['Boolean']) return arg['Boolean']['boolval'] ? 'true' : 'false';
  if (arg['A_Star']) return '*';
  throw syntax(`${name} requires a parameter`);
}

function optionBool(el: Fields, name: string, from = false): boolean {
  const arg = el['arg'] as PgNode | undefined;
  if (!arg) return true;
  const v = optionText(el, name).toLowerCase();
  if (['true', 'on', '1'].includes(v)) return true;
  if (['false', 'off', '0'].includes(v)) return false;
  if (v === 'match') throw new PgError(SqlState.featureNotSupported, from ? 'HEADER MATCH is not supported by lakegate' : 'cannot use "match" with HEADER in COPY TO');
  throw syntax(`${name} requires a Boolean value`);
}

function oneByte(value: string, what: string): number {
  const b = Buffer.from(value, 'utf8');
  if (b.length !== 1) throw new PgError(SqlState.featureNotSupported, `COPY ${what} must be a single one-byte character`);
  return b[0]!;
}

/** PostgreSQL's checks of COPY's options (ProcessCopyOptions), for COPY TO or (`from`) COPY FROM. */
export function copyOptions(options: PgNode[] | undefined, from = false): CopyOptions {
  const seen = new Set<string>();
  let format: CopyOptions['format'] = 'text';
  let header = false;
  let delimiter: string | undefined;
  let nullText: string | undefined;
  let quote: string | undefined;
  let escape: string | undefined;
  let forceQuote: CopyOptions['forceQuote'] = new Set();
  let forceNotNull: string[] = [];
  let forceNull: string[] = [];
  for (const opt of options ?? []) {
    const el = opt['DefElem'] as Fields;
    const name = el['defname'] as string;
    if (seen.has(name)) throw syntax('conflicting or redundant options');
    seen.add(name);
    switch (name) {
      case 'format': {
        const f = optionText(el, name).toLowerCase();
        if (f !== 'text' && f !== 'csv' && f !== 'binary') throw new PgError(SqlState.invalidParameterValue, `COPY format "${f}" not recognized`);
        format = f;
        break;
      }
      case 'header':
        header = optionBool(el, name, from);
        break;
      case 'delimiter':
        delimiter = optionText(el, name);
        break;
      case 'null':
        nullText = optionText(el, name);
        break;
      case 'quote':
        quote = optionText(el, name);
        break;
      case 'escape':
        escape = optionText(el, name);
        break;
      case 'force_quote': {
        if (from) throw new PgError(SqlState.featureNotSupported, 'COPY force quote only available using COPY TO');
        const arg = el['arg'] as PgNode | undefined;
        if (arg?.['A_Star']) forceQuote = '*';
        else forceQuote = new Set(((arg?.['List']?.['items'] as PgNode[] | undefined) ?? []).map((n) => String(n['String']?.['sval'])));
        break;
      }
      case 'encoding': {
        const enc = optionText(el, name);
        if (!/^(utf-?8|unicode)$/i.test(enc)) throw new PgError(SqlState.featureNotSupported, `conversion between UTF8 and ${enc} is not supported`);
        break;
      }
      case 'force_not_null':
      case 'force_null':
        if (from) {
          const names = ((el['arg'] as PgNode | undefined)?.['List']?.['items'] as PgNode[] | undefined ?? []).map((n) => String(n['String']?.['sval']));
          if (name === 'force_null') forceNull = names;
          else forceNotNull = names;
          break;
        }
        throw new PgError(SqlState.featureNotSupported, `COPY ${name.toUpperCase().replace('_', ' ')} only available using COPY FROM`);
      case 'freeze':
      case 'default':
        if (from) throw new PgError(SqlState.featureNotSupported, `COPY ${name.toUpperCase().replace('_', ' ')} is not supported by lakegate`);
        throw new PgError(SqlState.featureNotSupported, `COPY ${name.toUpperCase().replace('_', ' ')} only available using COPY FROM`);
      default:
        throw syntax(`option "${name}" not recognized`);
    }
  }
  if (format === 'binary') {
    if (delimiter !== undefined) throw syntax('cannot specify DELIMITER in BINARY mode');
    if (nullText !== undefined) throw syntax('cannot specify NULL in BINARY mode');
  }
  if (format !== 'csv') {
    if (quote !== undefined) throw new PgError(SqlState.featureNotSupported, 'COPY QUOTE requires CSV mode');
    if (escape !== undefined) throw new PgError(SqlState.featureNotSupported, 'COPY ESCAPE requires CSV mode');
    if (seen.has('force_quote')) throw new PgError(SqlState.featureNotSupported, 'COPY FORCE_QUOTE requires CSV mode');
  }
  if (format !== 'csv' && forceNotNull.length > 0) throw new PgError(SqlState.featureNotSupported, 'COPY force not null available only in CSV mode');
  if (format !== 'csv' && forceNull.length > 0) throw new PgError(SqlState.featureNotSupported, 'COPY force null available only in CSV mode');
  if (header && format === 'binary') throw new PgError(SqlState.featureNotSupported, 'cannot specify HEADER in BINARY mode');
  const delim = oneByte(delimiter ?? (format === 'csv' ? ',' : '\t'), 'delimiter');
  const nul = nullText ?? (format === 'csv' ? '' : '\\N');
  if (/[\r\n]/.test(delimiter ?? '') || /[\r\n]/.test(nul)) {
    throw new PgError(SqlState.featureNotSupported, 'COPY delimiter cannot be newline or carriage return');
  }
  const q = oneByte(quote ?? '"', 'quote');
  const e = oneByte(escape ?? quote ?? '"', 'escape');
  if (format === 'csv' && delim === q) throw new PgError(SqlState.featureNotSupported, 'COPY delimiter and quote must be different');
  if (format === 'text' && /[a-zA-Z0-9.\\]/.test(String.fromCharCode(delim))) {
    throw new PgError(SqlState.featureNotSupported, `COPY delimiter cannot be "${String.fromCharCode(delim)}"`);
  }
  return { format, header, delimiter: delim, nullText: Buffer.from(nul, 'utf8'), quote: q, escape: e, forceQuote, forceNotNull, forceNull };
}

const BINARY_SIGNATURE = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]);

/** Text-format escapes for control characters (CopyAttributeOutText). */
const TEXT_ESCAPES: Record<number, number> = { 8: 0x62, 12: 0x66, 10: 0x6e, 13: 0x72, 9: 0x74, 11: 0x76 };

/**
 * A RowSink that takes the DataRows the portal's encoder wrote and writes
 * one CopyData message per row, as PostgreSQL does.
 */
export class CopySink implements RowSink {
  readonly scratch = new MessageWriter(64 * 1024);
  private started = false;

  constructor(
    private readonly opts: CopyOptions,
    private readonly columns: string[],
  ) {}

  /** CopyOutResponse: the overall format and one per column. */
  begin(out: MessageWriter): void {
    const binary = this.opts.format === 'binary' ? 1 : 0;
    out.begin('H').byte(binary).int16(this.columns.length);
    for (let i = 0; i < this.columns.length; i++) out.int16(binary);
    out.end();
    if (this.opts.header) {
      out.begin('d');
      this.columns.forEach((name, i) => {
        if (i > 0) out.byte(this.opts.delimiter);
        this.value(out, Buffer.from(name, 'utf8'), i, true);
      });
      out.byte(0x0a).end();
    }
  }

  drain(out: MessageWriter): void {
    const buf = this.scratch.buf;
    const end = this.scratch.pos;
    let at = 0;
    while (at < end) {
      // A DataRow: 'D', int32 length, int16 count, then (int32 length, bytes) per value.
      const len = buf.readInt32BE(at + 1);
      const rowEnd = at + 1 + len;
      out.begin('d');
      if (this.opts.format === 'binary') {
        if (!this.started) out.bytes(BINARY_SIGNATURE).int32(0).int32(0);
        // A binary COPY tuple is a DataRow's body.
        out.bytes(buf.subarray(at + 5, rowEnd));
      } else {
        const n = buf.readInt16BE(at + 5);
        let p = at + 7;
        for (let i = 0; i < n; i++) {
          if (i > 0) out.byte(this.opts.delimiter);
          const vlen = buf.readInt32BE(p);
          p += 4;
          if (vlen < 0) out.bytes(this.opts.nullText);
          else {
            this.value(out, buf.subarray(p, p + vlen), i, false);
            p += vlen;
          }
        }
        out.byte(0x0a);
      }
      out.end();
      this.started = true;
      at = rowEnd;
    }
    this.scratch.reset();
  }

  /** The end: the binary trailer, CopyDone. */
  finish(out: MessageWriter): void {
    if (this.opts.format === 'binary') {
      out.begin('d');
      if (!this.started) out.bytes(BINARY_SIGNATURE).int32(0).int32(0);
      out.int16(-1).end();
    }
    out.begin('c').end();
  }

  private value(out: MessageWriter, v: Buffer, column: number, header: boolean): void {
    if (this.opts.format === 'csv') this.csvValue(out, v, column, header);
    else this.textValue(out, v);
  }

  private textValue(out: MessageWriter, v: Buffer): void {
    const delim = this.opts.delimiter;
    let from = 0;
    for (let i = 0; i < v.length; i++) {
      const c = v[i]!;
      let esc: number | undefined;
      if (c < 0x20) esc = TEXT_ESCAPES[c] ?? (c === delim ? c : undefined);
      else if (c === 0x5c || c === delim) esc = c;
      if (esc === undefined) continue;
      out.bytes(v.subarray(from, i)).byte(0x5c).byte(esc);
      from = i + 1;
    }
    out.bytes(from === 0 ? v : v.subarray(from));
  }

  private csvValue(out: MessageWriter, v: Buffer, column: number, header: boolean): void {
    const { delimiter, quote, escape } = this.opts;
    const fq = this.opts.forceQuote;
    let quoted = !header && (fq === '*' || fq.has(this.columns[column]!));
    // A value equal to the NULL string is quoted, so it reads back as a value.
    if (!quoted && v.equals(this.opts.nullText)) quoted = true;
    // "\." alone on a line would end the data for a reader.
    if (!quoted && this.columns.length === 1 && v.length === 2 && v[0] === 0x5c && v[1] === 0x2e) quoted = true;
    if (!quoted) {
      for (const c of v) {
        if (c === delimiter || c === quote || c === 0x0a || c === 0x0d) {
          quoted = true;
          break;
        }
      }
    }
    if (!quoted) {
      out.bytes(v);
      return;
    }
    out.byte(quote);
    let from = 0;
    for (let i = 0; i < v.length; i++) {
      const c = v[i]!;
      if (c !== quote && c !== escape) continue;
      out.bytes(v.subarray(from, i)).byte(escape);
      from = i;
    }
    out.bytes(v.subarray(from)).byte(quote);
  }
}
