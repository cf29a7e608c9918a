/**
 * Frontend (client → server) messages of protocol 3.0, decoded from one
 * complete frame. Names follow the PostgreSQL documentation.
 */
import { PgError } from './errors.js';
import { decodeUtf8 } from './types/utf8.js';

export type FrontendMessage =
  | { type: 'Query'; sql: string }
  | { type: 'Parse'; name: string; sql: string; paramOids: number[] }
  | {
      type: 'Bind';
      portal: string;
      statement: string;
      paramFormats: number[];
      params: (Buffer | null)[];
      resultFormats: number[];
    }
  | { type: 'Describe'; kind: 'S' | 'P'; name: string }
  | { type: 'Execute'; portal: string; maxRows: number }
  | { type: 'Close'; kind: 'S' | 'P'; name: string }
  | { type: 'Flush' }
  | { type: 'Sync' }
  | { type: 'Terminate' }
  | { type: 'Password'; body: Buffer }
  | { type: 'Unsupported'; code: string };

/** Reads fields out of one frame body, refusing to run past its end. */
export class FrameReader {
  private pos = 0;
  constructor(private readonly body: Buffer) {}

  int16(): number {
    this.need(2);
    const v = this.body.readInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  int32(): number {
    this.need(4);
    const v = this.body.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  byte(): number {
    this.need(1);
    return this.body[this.pos++]!;
  }

  cstring(): string {
    const end = this.body.indexOf(0, this.pos);
    if (end < 0) throw PgError.protocol('invalid string in message');
    const s = this.body.toString('utf8', this.pos, end);
    this.pos = end + 1;
    return s;
  }

  /** A NUL-terminated string that must be valid UTF-8 (22021 otherwise, as PostgreSQL's pq_getmsgstring). */
  text(): string {
    const end = this.body.indexOf(0, this.pos);
    if (end < 0) throw PgError.protocol('invalid string in message');
    const s = decodeUtf8(this.body.subarray(this.pos, end));
    this.pos = end + 1;
    return s;
  }

  bytes(n: number): Buffer {
    this.need(n);
    const b = this.body.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  rest(): Buffer {
    const b = this.body.subarray(this.pos);
    this.pos = this.body.length;
    return b;
  }

  get remaining(): number {
    return this.body.length - this.pos;
  }

  /** A count field: never negative, never more entries than bytes left. */
  count(bytesPerEntry: number): number {
    const n = this.int16();
    if (n < 0 || n * bytesPerEntry > this.remaining) throw PgError.protocol('invalid message format');
    return n;
  }

  private need(n: number): void {
    if (this.pos + n > this.body.length) throw PgError.protocol('invalid message format');
  }
}

function decodeBind(r: FrameReader): FrontendMessage {
  const portal = r.text();
  const statement = r.text();
  const nFormats = r.count(2);
  const paramFormats: number[] = [];
  for (let i = 0; i < nFormats; i++) paramFormats.push(r.int16());
  const nParams = r.count(4);
  const params: (Buffer | null)[] = [];
  for (let i = 0; i < nParams; i++) {
    const len = r.int32();
    if (len < -1) throw PgError.protocol('invalid message format');
    params.push(len === -1 ? null : Buffer.from(r.bytes(len)));
  }
  const nResult = r.count(2);
  const resultFormats: number[] = [];
  for (let i = 0; i < nResult; i++) resultFormats.push(r.int16());
  return { type: 'Bind', portal, statement, paramFormats, params, resultFormats };
}

function describeKind(b: number): 'S' | 'P' {
  if (b === 0x53) return 'S';
  if (b === 0x50) return 'P';
  throw PgError.protocol(`invalid DESCRIBE message subtype ${b}`);
}

export function decodeFrontend(type: number, body: Buffer): FrontendMessage {
  const r = new FrameReader(body);
  let msg: FrontendMessage;
  switch (String.fromCharCode(type)) {
    case 'Q':
      msg = { type: 'Query', sql: r.text() };
      break;
    case 'P': {
      const name = r.text();
      const sql = r.text();
      const n = r.count(4);
      const paramOids: number[] = [];
      for (let i = 0; i < n; i++) paramOids.push(r.int32() >>> 0);
      msg = { type: 'Parse', name, sql, paramOids };
      break;
    }
    case 'B':
      msg = decodeBind(r);
      break;
    case 'D':
      msg = { type: 'Describe', kind: describeKind(r.byte()), name: r.text() };
      break;
    case 'E':
      msg = { type: 'Execute', portal: r.text(), maxRows: r.int32() };
      break;
    case 'C':
      msg = { type: 'Close', kind: describeKind(r.byte()), name: r.text() };
      break;
    case 'H':
      return { type: 'Flush' };
    case 'S':
      return { type: 'Sync' };
    case 'X':
      return { type: 'Terminate' };
    case 'p':
      return { type: 'Password', body: Buffer.from(body) };
    default:
      return { type: 'Unsupported', code: String.fromCharCode(type) };
  }
  if (r.remaining !== 0) throw PgError.protocol('invalid message format');
  return msg;
}
