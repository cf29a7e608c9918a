/**
 * A minimal PostgreSQL v3 client codec for integration tests that must control the
 * bytes on the wire (malformed frames, pipelining, binary formats, trace replays).
 * Written independently of lakegate's protocol/ so the tests do not share its bugs.
 */
import net from 'node:net';
import crypto from 'node:crypto';

export interface BackendMessage {
  /** Type byte as a character, e.g. 'Z', 'E', 'T', 'D'. */
  type: string;
  body: Buffer;
}

export interface Field {
  name: string;
  tableOid: number;
  attnum: number;
  typeOid: number;
  typeLen: number;
  typmod: number;
  format: number;
}

export interface ErrorFields {
  severity?: string;
  code?: string;
  message?: string;
  position?: string;
  [k: string]: string | undefined;
}

// ---------- frontend messages ----------

function cstr(s: string): Buffer {
  return Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])]);
}

function int16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
}

function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}

/** A typed message: type byte + int32 length (including itself) + body. */
export function frame(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from(type, 'latin1'), int32(body.length + 4), body]);
}

export const fe = {
  startup(params: Record<string, string>, minor = 0): Buffer {
    const parts: Buffer[] = [int32(196608 + minor)];
    for (const [k, v] of Object.entries(params)) parts.push(cstr(k), cstr(v));
    parts.push(Buffer.from([0]));
    const body = Buffer.concat(parts);
    return Buffer.concat([int32(body.length + 4), body]);
  },
  sslRequest(): Buffer {
    return Buffer.concat([int32(8), int32(80877103)]);
  },
  cancel(pid: number, secret: number): Buffer {
    return Buffer.concat([int32(16), int32(80877102), int32(pid), int32(secret)]);
  },
  password(p: string): Buffer {
    return frame('p', cstr(p));
  },
  saslInitial(mech: string, data: string): Buffer {
    const d = Buffer.from(data, 'utf8');
    return frame('p', cstr(mech), int32(d.length), d);
  },
  saslResponse(data: string): Buffer {
    return frame('p', Buffer.from(data, 'utf8'));
  },
  query(sql: string): Buffer {
    return frame('Q', cstr(sql));
  },
  parse(name: string, sql: string, paramOids: number[] = []): Buffer {
    return frame('P', cstr(name), cstr(sql), int16(paramOids.length), ...paramOids.map(int32));
  },
  /** values: null, string (sent in the given format as UTF-8 text) or Buffer (raw bytes). */
  bind(
    portal: string,
    stmt: string,
    values: (Buffer | string | null)[],
    paramFormats: number[] = [],
    resultFormats: number[] = [],
  ): Buffer {
    const parts: Buffer[] = [cstr(portal), cstr(stmt), int16(paramFormats.length), ...paramFormats.map(int16)];
    parts.push(int16(values.length));
    for (const v of values) {
      if (v === null) parts.push(int32(-1));
      else {
        const b = typeof v === 'string' ? Buffer.from(v, 'utf8') : v;
        parts.push(int32(b.length), b);
      }
    }
    parts.push(int16(resultFormats.length), ...resultFormats.map(int16));
    return frame('B', ...parts);
  },
  describe(kind: 'S' | 'P', name: string): Buffer {
    return frame('D', Buffer.from(kind, 'latin1'), cstr(name));
  },
  execute(portal: string, maxRows = 0): Buffer {
    return frame('E', cstr(portal), int32(maxRows));
  },
  close(kind: 'S' | 'P', name: string): Buffer {
    return frame('C', Buffer.from(kind, 'latin1'), cstr(name));
  },
  sync(): Buffer {
    return frame('S');
  },
  flush(): Buffer {
    return frame('H');
  },
  terminate(): Buffer {
    return frame('X');
  },
};

// ---------- backend message decoding ----------

export function parseError(body: Buffer): ErrorFields {
  const out: ErrorFields = {};
  const names: Record<string, string> = {
    S: 'severity',
    V: 'severityNonLocalized',
    C: 'code',
    M: 'message',
    D: 'detail',
    H: 'hint',
    P: 'position',
  };
  let i = 0;
  while (i < body.length && body[i] !== 0) {
    const t = String.fromCharCode(body[i]!);
    const end = body.indexOf(0, i + 1);
    out[names[t] ?? t] = body.toString('utf8', i + 1, end);
    i = end + 1;
  }
  return out;
}

export function parseRowDescription(body: Buffer): Field[] {
  const n = body.readInt16BE(0);
  const fields: Field[] = [];
  let i = 2;
  for (let k = 0; k < n; k++) {
    const end = body.indexOf(0, i);
    const name = body.toString('utf8', i, end);
    i = end + 1;
    fields.push({
      name,
      tableOid: body.readUInt32BE(i),
      attnum: body.readInt16BE(i + 4),
      typeOid: body.readUInt32BE(i + 6),
      typeLen: body.readInt16BE(i + 10),
      typmod: body.readInt32BE(i + 12),
      format: body.readInt16BE(i + 16),
    });
    i += 18;
  }
  return fields;
}

/** DataRow columns as raw bytes (null for SQL NULL). */
export function parseDataRow(body: Buffer): (Buffer | null)[] {
  const n = body.readInt16BE(0);
  const cols: (Buffer | null)[] = [];
  let i = 2;
  for (let k = 0; k < n; k++) {
    const len = body.readInt32BE(i);
    i += 4;
    if (len === -1) cols.push(null);
    else {
      cols.push(body.subarray(i, i + len));
      i += len;
    }
  }
  return cols;
}

export function parseParameterStatus(body: Buffer): [string, string] {
  const a = body.indexOf(0);
  const b = body.indexOf(0, a + 1);
  return [body.toString('utf8', 0, a), body.toString('utf8', a + 1, b)];
}

export function cstring(body: Buffer): string {
  const end = body.indexOf(0);
  return body.toString('utf8', 0, end < 0 ? body.length : end);
}

/** One readable name per message, like the captured traces use. */
export function describe(m: BackendMessage): string {
  switch (m.type) {
    case 'Z':
      return `ReadyForQuery ${String.fromCharCode(m.body[0]!)}`;
    case 'C':
      return `CommandComplete ${cstring(m.body)}`;
    case 'E': {
      const e = parseError(m.body);
      return `Error ${e.severity} ${e.code} ${e.message}`;
    }
    case 'T':
      return 'RowDescription';
    case 'D':
      return 'DataRow';
    case '1':
      return 'ParseComplete';
    case '2':
      return 'BindComplete';
    case '3':
      return 'CloseComplete';
    case 'n':
      return 'NoData';
    case 's':
      return 'PortalSuspended';
    case 'I':
      return 'EmptyQueryResponse';
    case 't':
      return 'ParameterDescription';
    case 'S':
      return `ParameterStatus ${parseParameterStatus(m.body).join('=')}`;
    case 'K':
      return 'BackendKeyData';
    case 'R':
      return `Auth ${m.body.readInt32BE(0)}`;
    case 'N':
      return 'Notice';
    default:
      return `Message ${m.type}`;
  }
}

// ---------- connection ----------

export class RawConn {
  private buf = Buffer.alloc(0);
  private queue: BackendMessage[] = [];
  private waiters: (() => void)[] = [];
  /** Set once the server closed the socket (or it errored). */
  ended = false;
  /** Single-byte answers (SSLRequest) are only expected right after such a request. */
  private expectByte = false;
  private byteAnswer: string | null = null;
  pid = 0;
  secret = 0;
  readonly params = new Map<string, string>();

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (d) => this.onData(d));
    const end = () => {
      this.ended = true;
      this.wake();
    };
    socket.on('close', end);
    socket.on('end', end);
    socket.on('error', end);
  }

  static connect(host: string, port: number, timeoutMs = 10000): Promise<RawConn> {
    return new Promise((resolve, reject) => {
      const s = net.connect({ host, port });
      const t = setTimeout(() => {
        s.destroy();
        reject(new Error(`connect ${host}:${port} timed out`));
      }, timeoutMs);
      s.once('connect', () => {
        clearTimeout(t);
        resolve(new RawConn(s));
      });
      s.once('error', (e) => {
        clearTimeout(t);
        reject(e);
      });
    });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private onData(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d]);
    if (this.expectByte && this.buf.length >= 1) {
      this.byteAnswer = String.fromCharCode(this.buf[0]!);
      this.buf = this.buf.subarray(1);
      this.expectByte = false;
    }
    while (this.buf.length >= 5) {
      const len = this.buf.readInt32BE(1);
      if (this.buf.length < len + 1) break;
      this.queue.push({ type: String.fromCharCode(this.buf[0]!), body: this.buf.subarray(5, len + 1) });
      this.buf = this.buf.subarray(len + 1);
    }
    this.wake();
  }

  send(b: Buffer): void {
    this.socket.write(b);
  }

  /** Next backend message; null when the server closed the connection. */
  async next(timeoutMs = 10000): Promise<BackendMessage | null> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length === 0) {
      if (this.ended) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no message from server within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.queue.shift()!;
  }

  /** Collect messages up to and including the first one matching `stop`. */
  async until(stop: (m: BackendMessage) => boolean, timeoutMs = 10000): Promise<BackendMessage[]> {
    const out: BackendMessage[] = [];
    for (;;) {
      const m = await this.next(timeoutMs);
      if (!m) throw new Error(`connection closed; got so far: ${out.map(describe).join(' | ')}`);
      out.push(m);
      if (stop(m)) return out;
    }
  }

  untilReady(timeoutMs = 10000): Promise<BackendMessage[]> {
    return this.until((m) => m.type === 'Z', timeoutMs);
  }

  /** Read messages until the server closes the socket; returns what came before. */
  async drainUntilClosed(timeoutMs = 10000): Promise<BackendMessage[]> {
    const out: BackendMessage[] = [];
    for (;;) {
      const m = await this.next(timeoutMs);
      if (!m) return out;
      out.push(m);
    }
  }

  sslRequest(timeoutMs = 5000): Promise<string> {
    return this.byteRequest(fe.sslRequest(), timeoutMs);
  }

  gssEncRequest(timeoutMs = 5000): Promise<string> {
    const b = Buffer.alloc(8);
    b.writeInt32BE(8, 0);
    b.writeInt32BE(80877104, 4);
    return this.byteRequest(b, timeoutMs);
  }

  /** A request answered by one byte ('S' / 'N' / 'G'), not by a message. */
  async byteRequest(req: Buffer, timeoutMs = 5000): Promise<string> {
    this.expectByte = true;
    this.send(req);
    const deadline = Date.now() + timeoutMs;
    while (this.byteAnswer === null) {
      if (this.ended) throw new Error('closed before answering the request');
      if (Date.now() > deadline) throw new Error('no answer to the request');
      await new Promise((r) => setTimeout(r, 10));
    }
    const a = this.byteAnswer;
    this.byteAnswer = null;
    return a;
  }

  /**
   * StartupMessage and authentication (cleartext, MD5 or SCRAM-SHA-256, whichever the
   * server asks for). Returns every message up to ReadyForQuery, or throws with the
   * server's ErrorResponse.
   */
  async startup(
    user: string,
    database: string,
    password: string,
    extra: Record<string, string> = {},
  ): Promise<BackendMessage[]> {
    this.send(fe.startup({ user, database, ...extra }));
    const seen: BackendMessage[] = [];
    let scram: ScramClient | null = null;
    for (;;) {
      const m = await this.next(15000);
      if (!m) throw new Error(`closed during startup after: ${seen.map(describe).join(' | ')}`);
      seen.push(m);
      if (m.type === 'E') {
        const e = parseError(m.body);
        const err = new Error(`${e.code}: ${e.message}`) as Error & { fields: ErrorFields };
        err.fields = e;
        throw err;
      }
      if (m.type === 'R') {
        const code = m.body.readInt32BE(0);
        if (code === 3) this.send(fe.password(password));
        else if (code === 5) {
          const salt = m.body.subarray(4, 8);
          const inner = crypto.createHash('md5').update(password + user).digest('hex');
          const outer = crypto.createHash('md5').update(Buffer.concat([Buffer.from(inner), salt])).digest('hex');
          this.send(fe.password('md5' + outer));
        } else if (code === 10) {
          const mechs = m.body.subarray(4).toString('utf8').split('\0').filter(Boolean);
          if (!mechs.includes('SCRAM-SHA-256')) throw new Error(`no SCRAM-SHA-256 in ${mechs.join(',')}`);
          scram = new ScramClient(password);
          this.send(fe.saslInitial('SCRAM-SHA-256', scram.clientFirst()));
        } else if (code === 11) {
          this.send(fe.saslResponse(scram!.clientFinal(m.body.subarray(4).toString('utf8'))));
        } else if (code === 12) {
          scram!.verifyServerFinal(m.body.subarray(4).toString('utf8'));
        } else if (code !== 0) throw new Error(`unsupported auth request ${code}`);
      } else if (m.type === 'S') {
        const [k, v] = parseParameterStatus(m.body);
        this.params.set(k, v);
      } else if (m.type === 'K') {
        this.pid = m.body.readInt32BE(0);
        this.secret = m.body.readInt32BE(4);
      } else if (m.type === 'Z') return seen;
    }
  }

  /** Simple query; returns the messages up to ReadyForQuery. */
  async simple(sql: string, timeoutMs = 10000): Promise<BackendMessage[]> {
    this.send(fe.query(sql));
    return this.untilReady(timeoutMs);
  }

  close(): void {
    if (!this.ended) {
      try {
        this.socket.write(fe.terminate());
      } catch {
        /* already gone */
      }
    }
    this.socket.destroy();
  }
}

class ScramClient {
  private nonce = crypto.randomBytes(18).toString('base64');
  private first = '';
  private serverSig: Buffer | null = null;
  constructor(private password: string) {}

  clientFirst(): string {
    this.first = `n=*,r=${this.nonce}`;
    return `n,,${this.first}`;
  }

  clientFinal(serverFirst: string): string {
    const attrs = Object.fromEntries(serverFirst.split(',').map((kv) => [kv[0], kv.slice(2)]));
    const r = attrs['r']!;
    if (!r.startsWith(this.nonce)) throw new Error('SCRAM: server nonce does not extend ours');
    const salt = Buffer.from(attrs['s']!, 'base64');
    const iter = Number(attrs['i']);
    const salted = crypto.pbkdf2Sync(this.password.normalize('NFKC'), salt, iter, 32, 'sha256');
    const clientKey = crypto.createHmac('sha256', salted).update('Client Key').digest();
    const storedKey = crypto.createHash('sha256').update(clientKey).digest();
    const withoutProof = `c=biws,r=${r}`;
    const authMessage = `${this.first},${serverFirst},${withoutProof}`;
    const sig = crypto.createHmac('sha256', storedKey).update(authMessage).digest();
    const proof = Buffer.alloc(32);
    for (let i = 0; i < 32; i++) proof[i] = clientKey[i]! ^ sig[i]!;
    const serverKey = crypto.createHmac('sha256', salted).update('Server Key').digest();
    this.serverSig = crypto.createHmac('sha256', serverKey).update(authMessage).digest();
    return `${withoutProof},p=${proof.toString('base64')}`;
  }

  verifyServerFinal(serverFinal: string): void {
    const v = serverFinal.split(',').find((kv) => kv.startsWith('v='));
    if (!v || !this.serverSig || !Buffer.from(v.slice(2), 'base64').equals(this.serverSig)) {
      throw new Error('SCRAM: server signature does not verify');
    }
  }
}
