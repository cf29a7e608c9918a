import { ownTable } from './ownNames.js';
/**
 * The one error type of sql/. sql/ may not import protocol/ (imports flow
 * bin → server → {protocol, catalog, policy} → sql), so the server maps a
 * SqlError onto its PgError by `code` and `position`.
 */
export interface SqlErrorExtras {
  hint?: string;
  /** PostgreSQL's DETAIL: more about what went wrong, for the user. */
  detail?: string;
  /** What went wrong inside lakegate (a parse-tree path …): for the server log only, never sent to the client. */
  internal?: string;
}

export class SqlError extends Error {
  override readonly name = 'SqlError';
  readonly hint?: string;
  readonly detail?: string;
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
    this.detail = extras.detail;
    this.internal = extras.internal;
  }
}

/** PostgreSQL reports node locations 0-based; the wire wants 1-based, and -1 means unknown. */
export const pos = (location: unknown): number | undefined =>
  typeof location === 'number' && location >= 0 ? location + 1 : undefined;

export const notSupported = (what: string, location?: unknown): SqlError =>
  new SqlError('0A000', `${what} is not supported`, pos(location));

/** PostgreSQL's names of the types a literal or a cast can show before binding. */
const TYPE_DISPLAY: Readonly<Record<string, string>> = ownTable({
  int2: 'smallint', smallint: 'smallint', int4: 'integer', int: 'integer', integer: 'integer', int8: 'bigint', bigint: 'bigint',
  float4: 'real', real: 'real', float8: 'double precision', numeric: 'numeric', decimal: 'numeric', text: 'text',
  varchar: 'character varying', bpchar: 'character', bool: 'boolean', boolean: 'boolean', date: 'date',
  timestamp: 'timestamp without time zone', timestamptz: 'timestamp with time zone', time: 'time without time zone',
  timetz: 'time with time zone', interval: 'interval', json: 'json', jsonb: 'jsonb', bytea: 'bytea', uuid: 'uuid',
});

type Node = Record<string, Record<string, unknown> | undefined>;

/** The type PostgreSQL would name for an argument, where it is plain before binding (a literal or a cast). */
function argumentType(arg: unknown): string | undefined {
  const n = arg as Node | undefined;
  const c = n?.['A_Const'];
  if (c) return c['ival'] ? 'integer' : c['fval'] ? 'numeric' : c['boolval'] ? 'boolean' : 'unknown';
  const t = n?.['TypeCast'];
  if (t) {
    const tn = t['typeName'] as { names?: { String?: { sval?: string } }[]; arrayBounds?: unknown[] } | undefined;
    const name = tn?.names?.[tn.names.length - 1]?.String?.sval ?? '';
    const shown = TYPE_DISPLAY[name];
    return shown && tn?.arrayBounds?.length ? `${shown}[]` : shown;
  }
  return undefined;
}

/**
 * 42883 as PostgreSQL words it: `function to_char(date, unknown) does not
 * exist` with its hint. Argument types are named where a literal or a cast
 * shows them; an argument whose type only binding would tell makes it `…`.
 */
export const undefinedFunction = (name: string, location?: unknown, args?: readonly unknown[]): SqlError => {
  const types = (args ?? []).map(argumentType);
  const shown = args === undefined || types.some((t) => t === undefined) ? '…' : types.join(', ');
  return new SqlError('42883', `function ${name}(${shown}) does not exist`, pos(location), {
    hint: 'No function matches the given name and argument types. You might need to add explicit type casts.',
  });
};

export const undefinedTable = (name: string, location?: unknown): SqlError =>
  new SqlError('42P01', `relation "${name}" does not exist`, pos(location));
