/**
 * The one place that turns any failure into what a client may see. Engine
 * messages can name tables the user may not know ("Did you mean …?"), echo
 * rewritten SQL, filter literals or mask keys: only a vetted first line is
 * kept, and anything unrecognised becomes a generic message.
 */
import { PgError, SqlState, type SqlStateCode } from '../protocol/errors.js';
import { SqlError } from '../sql/errors.js';
import { CatalogError } from '../catalog/iceberg/api.js';
import { CatalogLoginError } from '../catalog/userCatalog.js';

const ENGINE_CLASSES: [RegExp, SqlStateCode][] = [
  [/^Conversion Error/, SqlState.invalidTextRepresentation],
  [/^Out of Range Error/, SqlState.numericValueOutOfRange],
  [/^Invalid Input Error/, SqlState.invalidTextRepresentation],
  [/^Binder Error/, SqlState.undefinedColumn],
  [/^Catalog Error/, SqlState.undefinedObject],
  [/^Out of Memory Error/, SqlState.outOfMemory],
  [/^Parser Error/, SqlState.syntaxError],
  [/^Not implemented Error/, SqlState.featureNotSupported],
  [/^Permission Error/, SqlState.insufficientPrivilege],
];

/** DuckDB's physical type names → PostgreSQL's, as PostgreSQL names them in input and range errors. */
const PG_TYPE: Record<string, string> = {
  INT8: 'smallint', INT16: 'smallint', INT32: 'integer', INT64: 'bigint', INT128: 'numeric', UINT8: 'smallint',
  UINT16: 'integer', UINT32: 'bigint', UINT64: 'numeric', BOOL: 'boolean', BOOLEAN: 'boolean', FLOAT: 'real',
  DOUBLE: 'double precision', DATE: 'date', TIME: 'time without time zone', TIMESTAMP: 'timestamp without time zone',
  'TIMESTAMP WITH TIME ZONE': 'timestamp with time zone', UUID: 'uuid', DECIMAL: 'numeric', INTERVAL: 'interval',
  VARCHAR: 'text', BLOB: 'bytea', JSON: 'json',
};
const pgType = (t: string): string => PG_TYPE[t.toUpperCase()] ?? PG_TYPE[t.toUpperCase().replace(/\(.*$/, '')] ?? 'the target type';

/**
 * Engine errors about data quote the data ("Could not convert string
 * '111-11-1111' to INT32", "with value 200", "(100000 * 100000)"): a value a
 * row filter hid, or the raw value behind a mask (threats.md §2.5). These
 * become PostgreSQL's message without the value; anything else of these
 * classes keeps its text with every quoted string and number blanked.
 */
const DATA_ERRORS: [RegExp, SqlStateCode, (m: RegExpExecArray) => string][] = [
  [/Could not convert string .* to ([A-Z0-9_ ]+?)(?: when casting|$)/s, SqlState.invalidTextRepresentation, (m) => `invalid input syntax for type ${pgType(m[1]!)}`],
  [/Could not convert .* to ([A-Z0-9_ ]+?)(?: when casting|$)/s, SqlState.invalidTextRepresentation, (m) => `invalid input syntax for type ${pgType(m[1]!)}`],
  [/out of range for the destination type ([A-Z0-9_]+)/, SqlState.numericValueOutOfRange, (m) => `${pgType(m[1]!)} out of range`],
  [/Overflow in [a-z]+ of ([A-Z0-9_]+)/, SqlState.numericValueOutOfRange, (m) => `${pgType(m[1]!)} out of range`],
  [/Casting value .* to type DECIMAL.* failed/s, SqlState.numericValueOutOfRange, () => 'numeric field overflow'],
  [/(date|time|timestamp) field value out of range|invalid (date|time|timestamp) field format/i, SqlState.datetimeFieldOverflow, () => 'date/time field value out of range'],
  [/^(Date|Timestamp) out of range/, SqlState.datetimeFieldOverflow, (m) => `${m[1]!.toLowerCase()} out of range`],
];

/** Blank what could be a stored value: quoted strings and numbers. */
export function redactValues(text: string): string {
  return text
    .replace(/'(?:[^']|'')*'/g, "'…'")
    .replace(/"(?:[^"]|"")*"/g, '"…"')
    .replace(/(^|[^A-Za-z0-9_])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi, '$1…');
}

function dataError(message: string, code: SqlStateCode): PgError {
  const body = message.split('\n')[0]!.replace(/^[A-Za-z ]+ Error: /, '');
  for (const [pattern, c, text] of DATA_ERRORS) {
    const m = pattern.exec(body);
    if (m) return new PgError(c, text(m));
  }
  return new PgError(code, redactValues(safeText(message)));
}

/** Keep the message itself; drop hints, candidate lists and echoed SQL. */
function safeText(message: string): string {
  const firstLine = message.split('\n')[0]!;
  const body = firstLine.replace(/^[A-Za-z ]+ Error: /, '');
  return body
    .replace(/\s*Did you mean[^]*$/, '')
    .replace(/\s*Candidate (bindings|functions)[^]*$/, '')
    .replace(/!$/, '')
    .trim();
}

export function isInterrupt(e: unknown): boolean {
  return e instanceof Error && /^INTERRUPT Error/.test(e.message);
}

/** Map anything thrown while serving a statement to a PgError. */
export function toPgError(e: unknown, onUnexpected: (e: unknown) => void): PgError {
  if (e instanceof PgError) return e;
  if (e instanceof SqlError) return new PgError(e.code as SqlStateCode, e.message, { position: e.position });
  if (e instanceof CatalogLoginError) {
    return new PgError(SqlState.invalidAuthorizationSpecification, `terminating connection: ${e.message}`, {
      severity: 'FATAL',
      detail: 'The catalog answered 401 and the login could not be renewed.',
      hint: 'Connect again to log in.',
    });
  }
  if (e instanceof CatalogError) {
    // Reachability and malformed answers are the operator's concern; the user learns the catalog is unavailable.
    onUnexpected(e);
    return new PgError(SqlState.connectionFailure, 'the catalog is unavailable', {
      detail: e.kind === 'unavailable' ? 'The Iceberg catalog could not be reached.' : 'The Iceberg catalog sent an answer lakegate could not use.',
    });
  }
  if (e instanceof Error) {
    const columnMissing = /^Binder Error: Referenced column "([^"]+)" not found/.exec(e.message);
    if (columnMissing) return new PgError(SqlState.undefinedColumn, `column "${columnMissing[1]}" does not exist`);
    if (/^Binder Error: No function matches/.test(e.message) || /^Catalog Error: Scalar Function with name/.test(e.message)) {
      const fn = /with name "?([A-Za-z0-9_]+)"?/.exec(e.message)?.[1] ?? /function '([A-Za-z0-9_]+)\(/.exec(e.message)?.[1];
      return new PgError(SqlState.undefinedFunction, fn ? `function ${fn} does not exist` : 'function does not exist', {
        hint: 'No function matches the given name and argument types. You might need to add explicit type casts.',
      });
    }
    if (/division by zero/i.test(e.message)) return new PgError(SqlState.divisionByZero, 'division by zero');
    for (const [pattern, code] of ENGINE_CLASSES) {
      if (pattern.test(e.message)) {
        // Catalog errors can reveal names; they are reported without the engine's text.
        if (code === SqlState.undefinedObject) return new PgError(code, 'object does not exist');
        if (/^(Conversion|Out of Range|Invalid Input) Error/.test(e.message)) return dataError(e.message, code);
        return new PgError(code, safeText(e.message));
      }
    }
  }
  onUnexpected(e);
  return new PgError(SqlState.internalError, 'internal error while executing the statement');
}
