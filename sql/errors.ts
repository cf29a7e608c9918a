/**
 * The one error type of sql/. sql/ may not import protocol/ (imports flow
 * bin → server → {protocol, catalog, policy} → sql), so the server maps a
 * SqlError onto its PgError by `code` and `position`.
 */
export interface SqlErrorExtras {
  hint?: string;
  /** What went wrong inside lakegate (a parse-tree path …): for the server log only, never sent to the client. */
  internal?: string;
}

export class SqlError extends Error {
  override readonly name = 'SqlError';
  readonly hint?: string;
  readonly internal?: string;
  constructor(
    /** SQLSTATE, e.g. 42601 */
    readonly code: string,
    message: string,
    /** 1-based character position in the statement text, as PostgreSQL reports it */
    readonly position?: number,
    extras: SqlErrorExtras = {},
  ) {
    super(message);
    this.hint = extras.hint;
    this.internal = extras.internal;
  }
}

/** PostgreSQL reports node locations 0-based; the wire wants 1-based, and -1 means unknown. */
export const pos = (location: unknown): number | undefined =>
  typeof location === 'number' && location >= 0 ? location + 1 : undefined;

export const notSupported = (what: string, location?: unknown): SqlError =>
  new SqlError('0A000', `${what} is not supported`, pos(location));

export const undefinedFunction = (name: string, location?: unknown): SqlError =>
  new SqlError('42883', `function ${name}(…) does not exist`, pos(location));

export const undefinedTable = (name: string, location?: unknown): SqlError =>
  new SqlError('42P01', `relation "${name}" does not exist`, pos(location));
