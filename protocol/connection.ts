/**
 * One client connection: the startup and authentication exchange, then the
 * simple and extended query state machine. One handler per phase, as in the
 * PostgreSQL documentation's message flow; everything behind the wire is
 * reached through ConnectionHooks and QuerySession.
 */
import type { Socket } from 'node:net';
import { TLSSocket, type SecureContext } from 'node:tls';
import type { Duplex } from 'node:stream';
import * as be from './backend.js';
import { PgError, SqlState, statementTooLong } from './errors.js';
import { decodeFrontend, FrameReader, type FrontendMessage } from './frontend.js';
import { FrameStream } from './framing.js';
import type { ConnectionHooks, Output, QuerySession, StartupInfo } from './handler.js';
import { ScramExchange, type ScramVerifier } from './scram.js';
import { MessageWriter } from './writer.js';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 3;

/** Flush to the socket once this much output is buffered. */
const FLUSH_BYTES = 256 * 1024;
/** Stop producing while more than this waits in the socket's queue. */
const OUTPUT_HIGH_WATER = 1024 * 1024;

export interface ConnectionOptions {
  maxMessageBytes: number;
  /** A Query or Parse whose text is longer is refused (54000) before its bytes are decoded. */
  maxStatementBytes?: number;
  /** A client must finish startup and authentication within this time (PostgreSQL's authentication_timeout). */
  authTimeoutMs: number;
  tls: SecureContext | null;
  /** Called for internal failures that are reported to the client as XX000. */
  onInternalError(e: unknown): void;
}

class SocketOutput implements Output {
  readonly writer = new MessageWriter();
  constructor(
    public socket: Duplex,
    private readonly frames: FrameStream,
  ) {}

  async *copyIn(columns: number): AsyncIterable<Buffer> {
    be.copyInResponse(this.writer, columns);
    await this.flush();
    for (;;) {
      const frame = await this.frames.next(false);
      if (!frame) throw new PgError(SqlState.connectionFailure, 'unexpected EOF on client connection with an open transaction', { severity: 'FATAL' });
      switch (frame.type) {
        case 0x64: // CopyData
          yield frame.body;
          continue;
        case 0x63: // CopyDone
          return;
        case 0x66: {
          // CopyFail
          const end = frame.body.indexOf(0);
          const reason = frame.body.toString('utf8', 0, end < 0 ? frame.body.length : end);
          throw new PgError(SqlState.queryCanceled, `COPY from stdin failed: ${reason}`);
        }
        case 0x48: // Flush
        case 0x53: // Sync
          continue;
        default:
          // PostgreSQL's two answers: the statement's ERROR, then FATAL, as the message it began to read is lost
          be.errorResponse(this.writer, new PgError(SqlState.protocolViolation, `unexpected message type 0x${frame.type.toString(16).toUpperCase().padStart(2, '0')} during COPY from stdin`));
          throw new PgError(SqlState.protocolViolation, 'terminating connection because protocol synchronization was lost', { severity: 'FATAL' });
      }
    }
  }

  async flush(): Promise<void> {
    if (this.writer.length === 0) return;
    // The client is gone: stop producing (a long result would otherwise run to its end for nobody).
    if (this.socket.destroyed || !this.socket.writable) {
      this.writer.reset();
      throw new PgError(SqlState.connectionFailure, 'connection to client lost', { severity: 'FATAL' });
    }
    this.socket.write(this.writer.take());
    // Back-pressure: wait only when a good deal is queued, so the next batch is
    // encoded while the kernel sends this one.
    if (this.socket.writableLength > OUTPUT_HIGH_WATER && !this.socket.destroyed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.socket.off('drain', done);
          this.socket.off('close', done);
          resolve();
        };
        this.socket.on('drain', done);
        this.socket.on('close', done);
      });
    }
  }

  /** Flush only when enough is buffered to be worth a write. */
  async maybeFlush(): Promise<void> {
    if (this.writer.length >= FLUSH_BYTES) await this.flush();
  }
}

/** What PostgreSQL sends every session when the server shuts down (SIGTERM: a fast shutdown). */
export const adminShutdown = (): PgError =>
  new PgError(SqlState.adminShutdown, 'terminating connection due to administrator command', { severity: 'FATAL' });

export class PgConnection<I> {
  private socket: Duplex;
  private readonly frames: FrameStream;
  private readonly out: SocketOutput;
  private tls = false;
  private session: QuerySession | null = null;
  /** After an error in an extended-query batch, skip everything up to Sync. */
  private skipToSync = false;
  private terminating = false;
  /** A FATAL ErrorResponse went out: nothing more may follow it. */
  private fatalSent = false;

  constructor(
    private readonly raw: Socket,
    private readonly hooks: ConnectionHooks<I>,
    private readonly opts: ConnectionOptions,
  ) {
    this.socket = raw;
    raw.setNoDelay(true);
    this.frames = new FrameStream(raw, opts.maxMessageBytes);
    this.out = new SocketOutput(raw, this.frames);
    // A client that hangs up stops its statement in every phase, rows flowing or not.
    raw.once('close', () => this.session?.interrupt('disconnect'));
  }

  /**
   * Server shutdown: a running statement is interrupted, and the client gets
   * FATAL 57P01 (at once when idle, else when its statement stops).
   */
  terminate(): void {
    if (this.terminating) return;
    this.terminating = true;
    this.session?.interrupt('shutdown');
    this.frames.abort(adminShutdown());
  }

  /**
   * The shutdown's grace period is over and the statement has not stopped
   * (a busy engine may not reach its next interrupt check in time): the
   * client still gets FATAL 57P01, as from PostgreSQL's fast shutdown, then
   * the socket goes. Whole messages only are ever buffered, so the error
   * cannot split one.
   */
  cut(): void {
    if (!this.fatalSent && !this.socket.destroyed && this.socket.writable) {
      this.fatalSent = true;
      be.errorResponse(this.out.writer, adminShutdown());
      this.socket.write(this.out.writer.take());
    }
    this.socket.end(() => this.socket.destroy());
    setTimeout(() => this.socket.destroy(), 200).unref();
  }

  async run(): Promise<void> {
    // A connection that never finishes logging in is dropped, so idle
    // half-open sockets cannot pile up before any limit applies.
    const authTimer = setTimeout(() => this.socket.destroy(), this.opts.authTimeoutMs);
    try {
      const info = await this.startup();
      if (!info) return;
      this.session = await this.authenticate(info);
      clearTimeout(authTimer);
      if (!this.session) return;
      await this.queryLoop(this.session);
    } catch (e) {
      await this.fatal(e);
    } finally {
      clearTimeout(authTimer);
      await this.session?.end().catch((e) => this.opts.onInternalError(e));
      this.frames.detach();
      this.close();
    }
  }

  /** Let a last ErrorResponse reach the client before the socket goes; never wait long for it. */
  private close(): void {
    const socket = this.socket;
    if (socket.destroyed) return;
    const timer = setTimeout(() => socket.destroy(), 2000);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.end(() => socket.destroy());
  }

  private async fatal(e: unknown): Promise<void> {
    const err = e instanceof PgError ? e : this.internal(e);
    if (this.socket.destroyed) return;
    if (this.fatalSent) return;
    this.fatalSent = true;
    const fatal = new PgError(err.code, err.message, { severity: 'FATAL', detail: err.detail, hint: err.hint });
    be.errorResponse(this.out.writer, fatal);
    await this.out.flush().catch(() => undefined);
  }

  private internal(e: unknown): PgError {
    this.opts.onInternalError(e);
    return new PgError(SqlState.internalError, 'internal error');
  }

  // ---- startup phase -------------------------------------------------------

  /** Returns the startup parameters, or null when the connection is done (cancel, hang-up). */
  private async startup(): Promise<StartupInfo | null> {
    for (;;) {
      const frame = await this.frames.next(true);
      if (!frame) return null;
      const r = new FrameReader(frame.body);
      const code = r.int32();
      if (code === SSL_REQUEST) {
        if (this.opts.tls && !this.tls) {
          await this.startTls();
        } else {
          this.socket.write('N');
        }
        continue;
      }
      if (code === GSSENC_REQUEST) {
        this.socket.write('N');
        continue;
      }
      if (code === CANCEL_REQUEST) {
        if (r.remaining === 8) this.hooks.cancel(r.int32(), r.int32());
        return null;
      }
      const major = code >>> 16;
      const minor = code & 0xffff;
      if (major !== PROTOCOL_3) {
        throw new PgError(
          SqlState.featureNotSupported,
          `unsupported frontend protocol ${major}.${minor}: server supports 3.0 to 3.0`,
        );
      }
      return this.readStartupParameters(r, minor);
    }
  }

  private async startTls(): Promise<void> {
    // Bytes sent after SSLRequest but before the handshake would be read as
    // if encrypted (CVE-2021-23214): refuse them.
    if (this.frames.pendingBytes > 0) throw PgError.protocol('received unencrypted data after SSL request');
    this.socket.write('S');
    const secure = new TLSSocket(this.raw, { isServer: true, secureContext: this.opts.tls! });
    this.frames.rebind(secure);
    this.socket = secure;
    this.out.socket = secure;
    this.tls = true;
  }

  private readStartupParameters(r: FrameReader, minor: number): StartupInfo {
    const params: Record<string, string> = {};
    const unrecognized: string[] = [];
    for (;;) {
      const key = r.cstring();
      if (key === '') break;
      const value = r.cstring();
      if (key.startsWith('_pq_.')) unrecognized.push(key);
      else params[key] = value;
    }
    if (minor > 0 || unrecognized.length > 0) be.negotiateProtocolVersion(this.out.writer, PROTOCOL_3 << 16, unrecognized);
    const user = params['user'];
    if (!user) {
      throw new PgError(SqlState.invalidAuthorizationSpecification, 'no PostgreSQL user name specified in startup packet');
    }
    const database = params['database'] || user;
    delete params['user'];
    delete params['database'];
    const port = this.raw.remotePort;
    return { user, database, params, tls: this.tls, remoteAddress: this.raw.remoteAddress ?? '', ...(port !== undefined ? { remotePort: port } : {}) };
  }

  // ---- authentication ------------------------------------------------------

  private async authenticate(info: StartupInfo): Promise<QuerySession | null> {
    const plan = await this.hooks.plan(info);
    if (this.hooks.requireTlsForPassword && !this.tls) {
      throw new PgError(
        SqlState.invalidAuthorizationSpecification,
        'password authentication requires an encrypted connection',
        { hint: 'Connect with sslmode=require.' },
      );
    }
    let identity: I | null;
    if (plan.method === 'cleartext') {
      be.authenticationCleartextPassword(this.out.writer);
      await this.out.flush();
      const body = await this.passwordMessage();
      if (!body) return null;
      // One NUL, at the end: a password cut short at an inner NUL would be checked as a different one.
      if (body.indexOf(0) !== body.length - 1) throw PgError.protocol('invalid password packet size');
      // An empty password is checked like any other, so it costs the same time and counts for throttling;
      // it is then refused in PostgreSQL's words.
      const password = new FrameReader(body).cstring();
      identity = await plan.verify(password);
      if (password === '') throw new PgError(SqlState.invalidPassword, 'empty password returned by client', { severity: 'FATAL' });
    } else {
      const outcome = await this.scram(plan.verifier, plan.identity);
      if (outcome === undefined) return null;
      await plan.settle?.(outcome !== null);
      identity = outcome;
    }
    if (identity === null) {
      throw new PgError(SqlState.invalidPassword, `password authentication failed for user "${info.user}"`);
    }
    const session = await this.hooks.open(info, identity);
    be.authenticationOk(this.out.writer);
    for (const [name, value] of session.initialParameters()) be.parameterStatus(this.out.writer, name, value);
    be.backendKeyData(this.out.writer, session.processId, session.secretKey);
    be.readyForQuery(this.out.writer, 'I');
    await this.out.flush();
    return session;
  }

  private async passwordMessage(): Promise<Buffer | null> {
    const frame = await this.frames.next(false);
    if (!frame) return null;
    if (frame.type !== 0x70) {
      throw PgError.protocol(`expected password response, got message type ${String.fromCharCode(frame.type)}`);
    }
    return frame.body;
  }

  /** Returns the identity, null for a failed proof, undefined when the client left. */
  private async scram(verifier: ScramVerifier, identity: I | null): Promise<I | null | undefined> {
    be.authenticationSASL(this.out.writer, ['SCRAM-SHA-256']);
    await this.out.flush();
    const first = await this.passwordMessage();
    if (!first) return undefined;
    const r = new FrameReader(first);
    const mechanism = r.cstring();
    if (mechanism !== 'SCRAM-SHA-256') {
      throw new PgError(SqlState.protocolViolation, 'client selected an invalid SASL authentication mechanism', {
        severity: 'FATAL',
      });
    }
    const len = r.int32();
    if (len < 0 || len !== r.remaining) throw PgError.protocol('invalid SASL initial response');
    const exchange = new ScramExchange(verifier);
    be.authenticationSASLContinue(this.out.writer, exchange.start(r.rest().toString('utf8')));
    await this.out.flush();
    const final = await this.passwordMessage();
    if (!final) return undefined;
    const serverFinal = exchange.finish(final.toString('utf8'));
    if (serverFinal === null || identity === null) return null;
    be.authenticationSASLFinal(this.out.writer, serverFinal);
    return identity;
  }

  // ---- query phase ---------------------------------------------------------

  private async queryLoop(session: QuerySession): Promise<void> {
    for (;;) {
      const frame = await this.frames.next(false);
      if (!frame) return;
      let msg: FrontendMessage;
      try {
        this.checkStatementBytes(frame.type, frame.body);
        msg = decodeFrontend(frame.type, frame.body);
      } catch (e) {
        // A well-framed message with bad content (invalid UTF-8): an ERROR for that message, as PostgreSQL answers it.
        if (!(e instanceof PgError) || e.severity === 'FATAL') throw e;
        await this.messageFailed(session, frame.type, e);
        continue;
      }
      if (msg.type === 'Terminate') return;
      await this.dispatch(session, msg);
      // Answers go out when the client waits for them: on Sync, Flush and
      // after a simple query; mid-batch only when the buffer is large.
      await this.out.maybeFlush();
    }
  }

  /** A query text over the bound costs nothing more than finding its end: refused before it is decoded or parsed. */
  private checkStatementBytes(type: number, body: Buffer): void {
    const max = this.opts.maxStatementBytes;
    if (max === undefined || body.length <= max || (type !== 0x51 && type !== 0x50)) return;
    const from = type === 0x50 ? body.indexOf(0) + 1 : 0; // Parse: the statement's name comes first
    const end = body.indexOf(0, from);
    const bytes = (end < 0 ? body.length : end) - from;
    if (bytes > max) throw statementTooLong(bytes, max);
  }

  /** Report an error for one message: a simple query or FunctionCall ends with ReadyForQuery, an extended one skips to Sync. */
  private async messageFailed(session: QuerySession, type: number, err: PgError): Promise<void> {
    const simple = type === 0x51 || type === 0x46; // 'Q', 'F'
    if (!simple && this.skipToSync) return;
    await this.guard(session, () => Promise.reject(err));
    if (simple) {
      this.skipToSync = false;
      be.readyForQuery(this.out.writer, session.transactionStatus());
      await this.out.flush();
    } else this.skipToSync = true;
  }

  private async dispatch(session: QuerySession, msg: FrontendMessage): Promise<void> {
    if (msg.type === 'Sync') {
      this.skipToSync = false;
      await this.guard(session, () => session.sync());
      be.readyForQuery(this.out.writer, session.transactionStatus());
      await this.out.flush();
      return;
    }
    if (msg.type === 'Flush') {
      await this.out.flush();
      return;
    }
    if (msg.type === 'Unsupported' && (msg.code === 'd' || msg.code === 'c' || msg.code === 'f')) {
      // What a client still sends of a COPY FROM STDIN that failed: dropped, as PostgreSQL drops it.
      return;
    }
    if (msg.type === 'Query') {
      this.skipToSync = false;
      await this.guard(session, () => session.simpleQuery(msg.sql, this.out));
      be.readyForQuery(this.out.writer, session.transactionStatus());
      await this.out.flush();
      return;
    }
    if (msg.type === 'Unsupported' && msg.code === 'F') {
      // FunctionCall is answered like a simple query: its error, then ReadyForQuery, flushed.
      await this.messageFailed(session, 0x46, PgError.featureNotSupported('the fastpath function call interface is not supported'));
      return;
    }
    if (this.skipToSync) return;
    const ok = await this.guard(session, () => this.extended(session, msg));
    if (!ok) this.skipToSync = true;
  }

  private async extended(session: QuerySession, msg: FrontendMessage): Promise<void> {
    const w = this.out.writer;
    switch (msg.type) {
      case 'Parse':
        await session.parse(msg.name, msg.sql, msg.paramOids);
        be.parseComplete(w);
        return;
      case 'Bind':
        await session.bind(msg);
        be.bindComplete(w);
        return;
      case 'Describe':
        if (msg.kind === 'S') await session.describeStatement(msg.name, this.out);
        else await session.describePortal(msg.name, this.out);
        return;
      case 'Execute':
        await session.execute(msg.portal, msg.maxRows, this.out);
        return;
      case 'Close':
        await session.close(msg.kind, msg.name);
        be.closeComplete(w);
        return;
      case 'Password':
        throw PgError.protocol('unexpected password message after authentication');
      case 'Unsupported':
        throw PgError.protocol(`invalid frontend message type ${msg.code.charCodeAt(0)}`);
      default:
        return;
    }
  }

  /**
   * Run a step; report a PgError to the client. A FATAL one (protocol
   * violation) ends the connection by rethrowing.
   */
  private async guard(session: QuerySession, step: () => Promise<void>): Promise<boolean> {
    try {
      await step();
      return true;
    } catch (e) {
      // Shutting down: whatever stopped the statement, the client hears why.
      const err = this.terminating ? adminShutdown() : e instanceof PgError ? e : this.internal(e);
      if (err.severity === 'FATAL') throw err;
      session.errorOccurred();
      be.errorResponse(this.out.writer, err);
      return false;
    }
  }
}
