/**
 * A session as the protocol sees it, watched: each message's statements are
 * followed to their CommandComplete or error (ops/statementWatch.ts). The
 * tags are read from the bytes the session wrote, before each flush and when
 * the message is done, so nothing in the statement path has to report them.
 */
import type { BindRequest, Output, QuerySession } from '../../protocol/handler.js';
import type { MessageWriter } from '../../protocol/writer.js';
import type { SessionWatch } from './statementWatch.js';

const COMMAND_COMPLETE = 0x43; // 'C'

/** Reads CommandComplete tags out of a writer's buffer, message by message, from where it stopped. */
class TagReader {
  private at = 0;

  constructor(
    private readonly writer: MessageWriter,
    private readonly onTag: (tag: string) => void,
  ) {}

  /** Start reading at what is written next. */
  mark(): void {
    this.at = this.writer.pos;
  }

  read(): void {
    const { buf, pos } = this.writer;
    // The buffer was handed to the socket by someone else (COPY's CopyInResponse): what is there now is new.
    if (pos < this.at) this.at = 0;
    while (this.at + 5 <= pos) {
      const len = buf.readInt32BE(this.at + 1);
      if (len < 4 || this.at + 1 + len > pos) break;
      if (buf[this.at] === COMMAND_COMPLETE) this.onTag(buf.toString('utf8', this.at + 5, this.at + len));
      this.at += 1 + len;
    }
  }
}

function sqlstateOf(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : 'XX000';
}

export class ObservedSession implements QuerySession {
  private reader: TagReader | null = null;
  private out: Output | null = null;

  constructor(
    private readonly inner: QuerySession,
    private readonly watch: SessionWatch,
    private readonly onEnd: () => void,
  ) {
    watch.catchUp = () => this.reader?.read();
  }

  get processId(): number {
    return this.inner.processId;
  }

  get secretKey(): number {
    return this.inner.secretKey;
  }

  initialParameters(): [string, string][] {
    return this.inner.initialParameters();
  }

  /** The protocol's Output, its flushes read first. One Output serves a connection. */
  private observed(out: Output): Output {
    if (this.out && this.reader) {
      this.reader.mark();
      return this.out;
    }
    const reader = new TagReader(out.writer, (tag) => this.watch.completed(tag));
    this.reader = reader;
    // A flush hands the buffer over before its first await: what is written next starts at the new position.
    const handOver = (flush: () => Promise<void>) => {
      reader.read();
      const done = flush();
      reader.mark();
      return done;
    };
    this.out = {
      writer: out.writer,
      flush: () => handOver(() => out.flush()),
      maybeFlush: () => handOver(() => out.maybeFlush()),
      copyIn: (columns) => {
        reader.read();
        const data = out.copyIn(columns);
        // CopyInResponse is flushed by the connection itself while the data is awaited.
        return {
          [Symbol.asyncIterator]: () => {
            const it = data[Symbol.asyncIterator]();
            return {
              next: async () => {
                const r = await it.next();
                reader.mark();
                return r;
              },
              return: async (v?: unknown) => {
                reader.mark();
                return it.return ? it.return(v) : { done: true as const, value: undefined };
              },
            };
          },
        };
      },
    };
    reader.mark();
    return this.out;
  }

  private async watched(out: Output | null, step: (out: Output) => Promise<void>): Promise<void> {
    const o = out ? this.observed(out) : this.out;
    if (!out && this.reader) this.reader.mark();
    try {
      await step(o!);
      this.reader?.read();
    } catch (e) {
      this.reader?.read();
      this.watch.failed(sqlstateOf(e));
      throw e;
    }
  }

  async simpleQuery(sql: string, out: Output): Promise<void> {
    this.watch.simpleQuery(sql);
    try {
      await this.watched(out, (o) => this.inner.simpleQuery(sql, o));
    } finally {
      this.watch.settled();
    }
  }

  parse(name: string, sql: string, paramOids: number[]): Promise<void> {
    this.watch.parsed(name, sql);
    return this.watched(null, () => this.inner.parse(name, sql, paramOids));
  }

  bind(req: BindRequest): Promise<void> {
    this.watch.bound(req.portal, req.statement);
    return this.watched(null, () => this.inner.bind(req));
  }

  describeStatement(name: string, out: Output): Promise<void> {
    return this.inner.describeStatement(name, out);
  }

  describePortal(name: string, out: Output): Promise<void> {
    return this.inner.describePortal(name, out);
  }

  execute(portal: string, maxRows: number, out: Output): Promise<void> {
    this.watch.executing(portal);
    return this.watched(out, (o) => this.inner.execute(portal, maxRows, o));
  }

  async close(kind: 'S' | 'P', name: string): Promise<void> {
    this.watch.forget(kind, name);
    return this.inner.close(kind, name);
  }

  async sync(): Promise<void> {
    try {
      await this.inner.sync();
    } finally {
      this.watch.settled();
    }
  }

  errorOccurred(): void {
    this.inner.errorOccurred();
  }

  interrupt(reason: 'disconnect' | 'shutdown'): void {
    this.inner.interrupt(reason);
  }

  transactionStatus() {
    return this.inner.transactionStatus();
  }

  async end(): Promise<void> {
    try {
      await this.inner.end();
    } finally {
      this.onEnd();
    }
  }
}
