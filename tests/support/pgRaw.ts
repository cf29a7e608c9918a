/**
 * A minimal PostgreSQL v3 client that returns column values as the exact
 * bytes the server sent, in text or binary. node-postgres decodes every
 * DataRow field as UTF-8 before a binary parser sees it (lossy for bytea,
 * numeric, int8 ...), so byte-for-byte reference tests need this instead.
 * Extended protocol only: Parse / Bind / Describe / Execute / Sync per query.
 */
import { connect, type Socket } from 'node:net';

export interface RawParam {
  oid: number;
  format: 0 | 1;
  value: Buffer | null;
}

export interface RawField {
  name: string;
  typeOid: number;
  typeMod: number;
  typeLen: number;
  format: number;
}

export interface RawResult {
  fields: RawField[];
  rows: (Buffer | null)[][];
}

export class PgServerError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

interface Msg {
  type: string;
  body: Buffer;
}

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head[0] = type.charCodeAt(0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const cstr = (s: string): Buffer => Buffer.from(`${s}\0`, 'utf8');
const i16 = (v: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(v);
  return b;
};
const i32 = (v: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return b;
};

export class RawPgClient {
  private pending = Buffer.alloc(0);
  private waiters: ((m: Msg) => void)[] = [];
  private queue: Msg[] = [];

  private constructor(private readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.pending = Buffer.concat([this.pending, d]);
      while (this.pending.length >= 5) {
        const len = this.pending.readInt32BE(1);
        if (this.pending.length < 1 + len) break;
        const m = { type: String.fromCharCode(this.pending[0]!), body: this.pending.subarray(5, 1 + len) };
        this.pending = this.pending.subarray(1 + len);
        const w = this.waiters.shift();
        if (w) w(m);
        else this.queue.push(m);
      }
    });
  }

  private next(): Promise<Msg> {
    const m = this.queue.shift();
    if (m) return Promise.resolve(m);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  static async connect(host: string, port: number, user = 'postgres', database = 'postgres'): Promise<RawPgClient> {
    const socket = connect({ host, port });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const client = new RawPgClient(socket);
    const params = Buffer.concat([cstr('user'), cstr(user), cstr('database'), cstr(database), cstr('client_encoding'), cstr('UTF8'), Buffer.from([0])]);
    socket.write(Buffer.concat([i32(params.length + 8), i32(196608), params]));
    for (;;) {
      const m = await client.next();
      if (m.type === 'E') throw client.error(m.body);
      if (m.type === 'R' && m.body.readInt32BE(0) !== 0) throw new Error('raw client supports trust auth only');
      if (m.type === 'Z') return client;
    }
  }

  private error(body: Buffer): PgServerError {
    let code = '';
    let text = '';
    for (let p = 0; p < body.length && body[p] !== 0; ) {
      const field = String.fromCharCode(body[p]!);
      const end = body.indexOf(0, p + 1);
      const value = body.toString('utf8', p + 1, end);
      if (field === 'C') code = value;
      if (field === 'M') text = value;
      p = end + 1;
    }
    return new PgServerError(code, text);
  }

  /** Run one statement; every result column in `resultFormat`. Rejects with PgServerError on an ErrorResponse. */
  async query(sql: string, params: RawParam[] = [], resultFormat: 0 | 1 = 0): Promise<RawResult> {
    const parse = Buffer.concat([cstr(''), cstr(sql), i16(params.length), ...params.map((p) => i32(p.oid))]);
    const bind = Buffer.concat([
      cstr(''),
      cstr(''),
      i16(params.length),
      ...params.map((p) => i16(p.format)),
      i16(params.length),
      ...params.map((p) => (p.value === null ? i32(-1) : Buffer.concat([i32(p.value.length), p.value]))),
      i16(1),
      i16(resultFormat),
    ]);
    this.socket.write(
      Buffer.concat([
        message('P', parse),
        message('B', bind),
        message('D', Buffer.concat([Buffer.from('P'), cstr('')])),
        message('E', Buffer.concat([cstr(''), i32(0)])),
        message('S', Buffer.alloc(0)),
      ]),
    );
    const result: RawResult = { fields: [], rows: [] };
    let failure: PgServerError | null = null;
    for (;;) {
      const m = await this.next();
      if (m.type === 'E') failure = this.error(m.body);
      else if (m.type === 'T') result.fields = parseRowDescription(m.body);
      else if (m.type === 'D') result.rows.push(parseDataRow(m.body));
      else if (m.type === 'Z') break;
    }
    if (failure) throw failure;
    return result;
  }

  async end(): Promise<void> {
    this.socket.end(message('X', Buffer.alloc(0)));
    await new Promise((resolve) => this.socket.once('close', resolve));
  }
}

export function parseRowDescription(body: Buffer): RawField[] {
  const n = body.readInt16BE(0);
  const fields: RawField[] = [];
  let p = 2;
  for (let k = 0; k < n; k++) {
    const end = body.indexOf(0, p);
    const name = body.toString('utf8', p, end);
    p = end + 1;
    fields.push({ name, typeOid: body.readUInt32BE(p + 6), typeLen: body.readInt16BE(p + 10), typeMod: body.readInt32BE(p + 12), format: body.readInt16BE(p + 16) });
    p += 18;
  }
  return fields;
}

/** The fields of one DataRow message body (after the type byte and length). */
export function parseDataRow(body: Buffer): (Buffer | null)[] {
  const n = body.readInt16BE(0);
  const values: (Buffer | null)[] = [];
  let p = 2;
  for (let k = 0; k < n; k++) {
    const len = body.readInt32BE(p);
    p += 4;
    if (len < 0) values.push(null);
    else {
      values.push(Buffer.from(body.subarray(p, p + len)));
      p += len;
    }
  }
  return values;
}
