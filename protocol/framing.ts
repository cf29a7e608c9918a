/**
 * Cuts the incoming byte stream into frames. Before startup completes frames
 * have no type byte; after, each is type + int32 length + body. A frame over
 * the size bound is a protocol violation, never an allocation.
 */
import type { Duplex } from 'node:stream';
import { PgError } from './errors.js';

export interface Frame {
  /** 0 for startup-phase frames, else the message type byte. */
  type: number;
  body: Buffer;
}

/** PostgreSQL's own bound for startup packets. */
export const MAX_STARTUP_PACKET = 10000;

export class FrameStream {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private waiter: (() => void) | null = null;
  private ended = false;
  private failure: Error | null = null;
  /** Set by abort(): the next read throws it (the server is shutting down). */
  private aborted: Error | null = null;
  private socket: Duplex;
  private readonly onData = (chunk: Buffer) => {
    this.buffered.push(chunk);
    this.bufferedBytes += chunk.length;
    // Input back-pressure: a client that pipelines faster than we answer waits.
    if (this.bufferedBytes > this.maxMessageBytes + 65536) this.socket.pause();
    this.wake();
  };
  private readonly onEnd = () => {
    this.ended = true;
    this.wake();
  };
  private readonly onError = (e: Error) => {
    this.failure = e;
    this.wake();
  };

  constructor(
    socket: Duplex,
    private readonly maxMessageBytes: number,
  ) {
    this.socket = socket;
    this.attach(socket);
  }

  /** Switch to a new underlying stream (after the TLS handshake). */
  rebind(socket: Duplex): void {
    this.detach();
    this.socket = socket;
    this.attach(socket);
  }

  /** Bytes received but not yet consumed (must be none before a TLS handshake). */
  get pendingBytes(): number {
    return this.bufferedBytes;
  }

  detach(): void {
    this.socket.off('data', this.onData);
    this.socket.off('end', this.onEnd);
    this.socket.off('close', this.onEnd);
    this.socket.off('error', this.onError);
  }

  private attach(socket: Duplex): void {
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('close', this.onEnd);
    socket.on('error', this.onError);
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  private peek(n: number): Buffer | null {
    if (this.bufferedBytes < n) return null;
    if (this.buffered[0]!.length < n) {
      this.buffered = [Buffer.concat(this.buffered)];
    }
    return this.buffered[0]!;
  }

  private take(n: number): Buffer {
    const head = this.peek(n)!;
    const out = head.subarray(0, n);
    if (head.length === n) this.buffered.shift();
    else this.buffered[0] = head.subarray(n);
    this.bufferedBytes -= n;
    if (this.bufferedBytes <= this.maxMessageBytes) this.socket.resume();
    return out;
  }

  /** Make a pending or the next read throw `e` instead of waiting for the client. */
  abort(e: Error): void {
    this.aborted = e;
    this.wake();
  }

  /** The next frame, or null when the peer has gone. */
  async next(startup: boolean): Promise<Frame | null> {
    const headerLen = startup ? 4 : 5;
    for (;;) {
      if (this.aborted) throw this.aborted;
      const head = this.peek(headerLen);
      if (head) {
        const type = startup ? 0 : head[0]!;
        const len = head.readInt32BE(startup ? 0 : 1);
        const limit = startup ? MAX_STARTUP_PACKET : this.maxMessageBytes;
        if (len < 4 || (startup && len < 8)) throw PgError.protocol(`invalid message length ${len}`);
        if (len > limit) throw PgError.protocol(`message of ${len} bytes exceeds the limit of ${limit} bytes`);
        const total = len + (startup ? 0 : 1);
        if (this.bufferedBytes >= total) {
          const frame = this.take(total);
          return { type, body: frame.subarray(headerLen) };
        }
      }
      if (this.failure || this.ended) return null;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }
}
