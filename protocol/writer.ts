/**
 * A growable byte buffer for backend messages. Messages are appended in place
 * (no per-message allocation) and the whole batch is handed to the socket at
 * once, which is what makes streaming a DuckDB chunk cheap.
 */
import { PgError, SqlState } from './errors.js';

/** Buffers larger than this are not kept once handed to the socket: one huge row must not pin its memory. */
const KEEP_BYTES = 1024 * 1024;

export class MessageWriter {
  buf: Buffer;
  pos = 0;
  private msgStart = -1;
  /** Where the message being bounded starts (-1: none), and its bound. */
  private boundFrom = -1;
  private bound = Infinity;

  constructor(private readonly initialSize = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initialSize);
  }

  get length(): number {
    return this.pos;
  }

  /**
   * Bound the message that starts at the current position to `max` bytes:
   * growing it further throws PostgreSQL's 53200 (its string buffers stop at
   * 1 GB) before anything is allocated. endBound() lifts it.
   */
  startBound(max: number): void {
    this.boundFrom = this.pos;
    this.bound = max;
  }

  endBound(): void {
    if (this.boundFrom >= 0 && this.pos - this.boundFrom > this.bound) throw this.tooLarge(0);
    this.boundFrom = -1;
  }

  /** Drop a bounded message that could not be finished. */
  abandonBound(): void {
    if (this.boundFrom >= 0) this.pos = this.boundFrom;
    this.boundFrom = -1;
  }

  private tooLarge(more: number): PgError {
    const held = this.pos - this.boundFrom;
    return new PgError(SqlState.outOfMemory, 'out of memory', {
      detail: `Cannot enlarge string buffer containing ${held} bytes by ${more} more bytes.`,
    });
  }

  ensure(bytes: number): void {
    const need = this.pos + bytes;
    if (this.boundFrom >= 0 && need - this.boundFrom > this.bound) throw this.tooLarge(bytes);
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Start a message with its type byte; the length is patched by end(). */
  begin(type: string): this {
    this.ensure(5);
    this.buf[this.pos] = type.charCodeAt(0);
    this.msgStart = this.pos + 1;
    this.pos += 5;
    return this;
  }

  end(): this {
    this.buf.writeInt32BE(this.pos - this.msgStart, this.msgStart);
    this.msgStart = -1;
    return this;
  }

  byte(v: number): this {
    this.ensure(1);
    this.buf[this.pos++] = v;
    return this;
  }

  int16(v: number): this {
    this.ensure(2);
    this.buf.writeInt16BE(v, this.pos);
    this.pos += 2;
    return this;
  }

  int32(v: number): this {
    this.ensure(4);
    this.buf.writeInt32BE(v, this.pos);
    this.pos += 4;
    return this;
  }

  /** A NUL-terminated string. */
  cstring(s: string): this {
    const len = Buffer.byteLength(s);
    this.ensure(len + 1);
    this.pos += this.buf.write(s, this.pos, 'utf8');
    this.buf[this.pos++] = 0;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  /** An int32 length followed by the UTF-8 bytes of s (a DataRow value). */
  lengthPrefixedString(s: string): this {
    // Worst case UTF-8 is 3 bytes per UTF-16 unit; avoids a byteLength pass.
    this.ensure(4 + s.length * 3);
    const written = this.buf.write(s, this.pos + 4, 'utf8');
    this.buf.writeInt32BE(written, this.pos);
    this.pos += 4 + written;
    return this;
  }

  /**
   * Take the bytes written so far and start over. Small batches are copied;
   * a large one hands over the buffer itself (the socket keeps it until sent)
   * and writing goes on in a fresh one, so big results are never copied.
   */
  take(): Buffer {
    let out: Buffer;
    if (this.pos < 16 * 1024) {
      out = Buffer.from(this.buf.subarray(0, this.pos));
    } else {
      out = this.buf.subarray(0, this.pos);
      this.buf = Buffer.allocUnsafe(this.buf.length > KEEP_BYTES ? this.initialSize : this.buf.length);
    }
    this.pos = 0;
    return out;
  }

  reset(): void {
    this.pos = 0;
    this.msgStart = -1;
    this.boundFrom = -1;
    if (this.buf.length > KEEP_BYTES) this.buf = Buffer.allocUnsafe(this.initialSize);
  }
}
