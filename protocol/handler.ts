/**
 * The seam between the wire and everything behind it. protocol/ drives these
 * interfaces; server/ implements them. Nothing here knows about policies,
 * catalogs or DuckDB.
 */
import type { TransactionStatus } from './backend.js';
import type { ScramVerifier } from './scram.js';
import type { MessageWriter } from './writer.js';

export interface StartupInfo {
  user: string;
  database: string;
  /** Every StartupMessage parameter except user and database (options, application_name ...). */
  params: Record<string, string>;
  tls: boolean;
  remoteAddress: string;
  /** undefined for a Unix-domain socket */
  remotePort?: number;
}

/** How the server wants this login checked; `I` is whatever identity the server keeps. */
export type AuthPlan<I> =
  | { method: 'cleartext'; verify(password: string): Promise<I | null> }
  | {
      method: 'scram-sha-256';
      verifier: ScramVerifier;
      identity: I | null;
      /** Told whether the proof succeeded, before the answer goes out (for throttling and a uniform delay). */
      settle?(ok: boolean): Promise<void>;
    };

/** Where a session writes its answers. */
export interface Output {
  readonly writer: MessageWriter;
  /** Hand buffered bytes to the socket; resolves once the socket can take more. */
  flush(): Promise<void>;
  /** flush() only once enough is buffered to be worth a write (for long results). */
  maybeFlush(): Promise<void>;
  /**
   * COPY FROM STDIN: send CopyInResponse for `columns` text columns, then
   * yield each CopyData's bytes until CopyDone. CopyFail is thrown as
   * PostgreSQL's 57014; Flush and Sync are ignored, any other message is 08P01
   * and ends the connection (as in PostgreSQL).
   */
  copyIn(columns: number): AsyncIterable<Buffer>;
}

export interface BindRequest {
  portal: string;
  statement: string;
  paramFormats: number[];
  params: (Buffer | null)[];
  resultFormats: number[];
}

/** One logged-in session, as the protocol state machine sees it. */
export interface QuerySession {
  readonly processId: number;
  readonly secretKey: number;
  /** ParameterStatus values sent after AuthenticationOk. */
  initialParameters(): [string, string][];
  simpleQuery(sql: string, out: Output): Promise<void>;
  parse(name: string, sql: string, paramOids: number[]): Promise<void>;
  bind(req: BindRequest): Promise<void>;
  describeStatement(name: string, out: Output): Promise<void>;
  describePortal(name: string, out: Output): Promise<void>;
  execute(portal: string, maxRows: number, out: Output): Promise<void>;
  close(kind: 'S' | 'P', name: string): Promise<void>;
  /** Sync: end the implicit transaction of an extended-query batch. */
  sync(): Promise<void>;
  /** Called after an error was reported: a transaction block becomes failed. */
  errorOccurred(): void;
  /**
   * Stop whatever runs now, in any phase, and start nothing new: the client
   * hung up, or the server is shutting down (the statement then fails with
   * FATAL 57P01).
   */
  interrupt(reason: 'disconnect' | 'shutdown'): void;
  transactionStatus(): TransactionStatus;
  end(): Promise<void>;
}

export interface ConnectionHooks<I> {
  /** Decide how to authenticate; throw a FATAL PgError to refuse (unknown database ...). */
  plan(info: StartupInfo): Promise<AuthPlan<I>>;
  /** Open the session of an authenticated user. */
  open(info: StartupInfo, identity: I): Promise<QuerySession>;
  /** A CancelRequest arrived on another connection. */
  cancel(processId: number, secretKey: number): void;
  /** Whether a password may be accepted on a connection without TLS. */
  readonly requireTlsForPassword: boolean;
}
