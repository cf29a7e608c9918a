/**
 * The one place that turns any failure into what a client may see. Engine
 * messages speak DuckDB (binder wording, internal macro names, type names
 * such as INT32), can name tables the user may not know ("Did you mean …?"),
 * echo rewritten SQL, and quote cell values from rows the user may not see.
 * So an engine error becomes PostgreSQL's SQLSTATE and words for the same
 * case; the engine's own text goes to the server log only, under a reference
 * the user can quote (DETAIL "… reference …").
 */
import { randomBytes } from 'node:crypto';
import { PgError, SqlState, type SqlStateCode } from '../protocol/errors.js';
import { INTERNAL_MACRO_ARGUMENTS, INTERNAL_MACRO_DISPLAY } from '../sql/emulation.js';
import { SqlError } from '../sql/errors.js';
import { CatalogError } from '../catalog/iceberg/api.js';
import { CatalogLoginError } from '../catalog/userCatalog.js';
import { EngineLostError } from './engine/process.js';

/** Receives what the client is not told, with the reference the client is given. */
export type ErrorLog = (e: unknown, ref: string) => void;

/** A short random id tying a client's error to its server log line. */
export const newReference = (): string => randomBytes(6).toString('hex');

const withReference = (ref: string): string => `Quote reference ${ref} to the administrator for details from the server log.`;

/**
 * The seam for cell values in engine messages ("could not convert string
 * '111-11-1111'"): the value may come from a row the user may not see, or
 * from a column before its mask. Returns what may be shown, or null to leave
 * it out. Fail closed: nothing is shown.
 */
export function clientValue(_value: string): string | null {
  return null;
}

const quoted = (value: string | undefined, prefix = ': '): string => {
  const shown = value === undefined ? null : clientValue(value);
  return shown === null ? '' : `${prefix}"${shown}"`;
};

/** DuckDB type names as PostgreSQL names them in its messages. */
const PG_TYPE_NAMES: Readonly<Record<string, string>> = {
  VARCHAR: 'text', STRING_LITERAL: 'unknown', INTEGER_LITERAL: 'integer', INTEGER: 'integer', INT32: 'integer', INT: 'integer',
  BIGINT: 'bigint', INT64: 'bigint', SMALLINT: 'smallint', INT16: 'smallint', TINYINT: 'smallint', INT8: 'smallint',
  HUGEINT: 'numeric', INT128: 'numeric', UBIGINT: 'numeric', UINTEGER: 'bigint', USMALLINT: 'integer', UTINYINT: 'smallint',
  DOUBLE: 'double precision', FLOAT: 'real', BOOLEAN: 'boolean', BOOL: 'boolean', DATE: 'date', TIME: 'time without time zone',
  TIMESTAMP: 'timestamp without time zone', 'TIMESTAMP WITH TIME ZONE': 'timestamp with time zone', TIMESTAMPTZ: 'timestamp with time zone',
  INTERVAL: 'interval', BLOB: 'bytea', UUID: 'uuid', JSON: 'json', DECIMAL: 'numeric', NULL: 'unknown',
};

function pgType(duck: string): string {
  const t = duck.trim();
  if (t.endsWith('[]')) return `${pgType(t.slice(0, -2))}[]`;
  if (/^DECIMAL\(/.test(t)) return 'numeric';
  return PG_TYPE_NAMES[t] ?? PG_TYPE_NAMES[t.toUpperCase()] ?? 'unknown';
}

/** `f(VARCHAR, INTEGER_LITERAL)` → the function or operator PostgreSQL would name. */
function missingFunction(name: string, args: string | null): PgError {
  // null: the engine did not say which argument types it got
  const short = name.split('.').pop()!;
  const known = INTERNAL_MACRO_ARGUMENTS[short];
  const types = args === null ? (known ? [...known] : ['…']) : args.split(/,\s*/).filter((a) => a !== '').map(pgType);
  const internal = INTERNAL_MACRO_DISPLAY[short];
  const operator = internal?.startsWith('operator ') ? internal.slice(9) : /^[^A-Za-z_]+$/.test(short) ? short : null;
  if (operator) {
    const shown = types.length === 2 ? `${types[0]} ${operator} ${types[1]}` : `${operator} ${types.join(', ')}`;
    return new PgError(SqlState.undefinedFunction, `operator does not exist: ${shown}`, {
      hint: 'No operator matches the given name and argument types. You might need to add explicit type casts.',
    });
  }
  const fn = internal ? internal.slice(9) : short;
  return new PgError(SqlState.undefinedFunction, `function ${fn}(${types.join(', ')}) does not exist`, {
    hint: 'No function matches the given name and argument types. You might need to add explicit type casts.',
  });
}

interface Mapped {
  error: PgError;
  /** The client's text is PostgreSQL's for the same case and hides nothing: no reference needed. */
  exact?: boolean;
}

const e = (code: SqlStateCode, message: string, exact = false): Mapped => ({ error: new PgError(code, message), exact });

/** Engine messages → PostgreSQL's SQLSTATE and words; the first rule that matches wins. */
const RULES: [RegExp, (m: RegExpExecArray) => Mapped][] = [
  [/^Invalid Input Error: relation "([^]*?)" does not exist/, (m) => e(SqlState.undefinedTable, `relation "${m[1]}" does not exist`, true)],
  // raised by the regproc / regprocedure lookups and pg_get_functiondef (pgcatalog/pgCatalogMacros.ts)
  [/^Invalid Input Error: (function "[^]*?" does not exist)$/, (m) => e(SqlState.undefinedFunction, m[1]!, true)],
  // raised by has_*_privilege (pgcatalog/privilegeMacros.ts), in PostgreSQL's words
  [/^Invalid Input Error: (unrecognized privilege type: "[^]*")$/, (m) => e(SqlState.invalidParameterValue, m[1]!, true)],
  [/^Invalid Input Error: (column "[^]*" of relation "[^]*" does not exist)$/, (m) => e(SqlState.undefinedColumn, m[1]!, true)],
  [/^Invalid Input Error: (role "[^]*" does not exist|role with OID \d+ does not exist)$/, (m) => e(SqlState.undefinedObject, m[1]!, true)],
  [/^Invalid Input Error: (schema "[^]*" does not exist)$/, (m) => e(SqlState.invalidSchemaName, m[1]!, true)],
  [/^Invalid Input Error: (more than one function named "[^]*?")$/, (m) => e(SqlState.ambiguousFunction, m[1]!, true)],
  [/^Invalid Input Error: ("[^"]*" is an aggregate function)$/, (m) => e(SqlState.wrongObjectType, m[1]!, true)],
  [/^Invalid Input Error: numeric field overflow: ([^\n]*)/, (m) => e(SqlState.numericValueOutOfRange, `numeric field overflow: ${m[1]}`, true)],
  [/^Invalid Input Error: division by zero/, () => e(SqlState.divisionByZero, 'division by zero', true)],
  [/^Invalid Input Error: requested length too large/, () => e(SqlState.programLimitExceeded, 'requested length too large', true)],
  [/^Invalid Input Error: LIKE pattern must not end with escape character/, () => e(SqlState.invalidEscapeSequence, 'LIKE pattern must not end with escape character', true)],
  // raised by width_bucket (sql/dialect/builtinMacros.ts)
  [/^Invalid Input Error: (count must be greater than zero|lower bound cannot equal upper bound)/, (m) => e(SqlState.invalidArgumentForWidthBucketFunction, m[1]!, true)],
  [/^Invalid Input Error: (number of elements to trim must be between 0 and \d+)/, (m) => e(SqlState.arraySubscriptError, m[1]!, true)],
  // raised by jsonb's path operations (sql/dialect/jsonMacros.ts)
  [/^Invalid Input Error: (cannot delete from scalar|cannot delete from object using integer index|cannot (?:set|delete) path in scalar|cannot replace existing key)$/,
    (m) => e(SqlState.invalidParameterValue, m[1]!, true)],
  // a jsonb number's exponent past numeric's range (sql/dialect/jsonMacros.ts lg_jsonb_num_x)
  [/^Invalid Input Error: value overflows numeric format$/, () => e(SqlState.numericValueOutOfRange, 'value overflows numeric format', true)],
  [/^Invalid Input Error: (path element at position \d+ is not an integer: "[^]*")$/, (m) => e(SqlState.invalidTextRepresentation, m[1]!, true)],
  [/^Invalid Input Error: More than one row returned by a subquery/, () => e(SqlState.cardinalityViolation, 'more than one row returned by a subquery used as an expression', true)],
  // a text value into a numeric column (an untyped literal on INSERT, a COPY FROM field): PostgreSQL's words exactly
  [/^Conversion Error: Could not convert string "([^"]*)" to (DECIMAL\(\d+,\s*\d+\))/, (m) => e(SqlState.invalidTextRepresentation, `invalid input syntax for type ${pgType(m[2]!)}${quoted(m[1])}`, true)],
  [/^Conversion Error: Could not convert string '([^]*)' to ([A-Z0-9_ ]+)/, (m) => e(SqlState.invalidTextRepresentation, `invalid input syntax for type ${pgType(m[2]!)}${quoted(m[1])}`)],
  [/^Conversion Error: Type \S+ with value .* can't be cast because the value is out of range for the destination type ([A-Z0-9_]+)/, (m) => e(SqlState.numericValueOutOfRange, `${pgType(m[1]!)} out of range`, true)],
  [/^Conversion Error: Could not cast value .* to ([A-Z0-9_]+)/, (m) => e(SqlState.numericValueOutOfRange, `${pgType(m[1]!)} out of range`)],
  [/^Conversion Error: Type \S+ with value '([^]*)' can't be cast to the destination type ([A-Z0-9_ ]+)/, (m) => e(SqlState.invalidTextRepresentation, `invalid input syntax for type ${pgType(m[2]!)}${quoted(m[1])}`)],
  [/^Conversion Error: Casting value .* to type DECIMAL.* failed/, () => e(SqlState.numericValueOutOfRange, 'numeric field overflow')],
  [/^Conversion Error: Unimplemented type for cast \((.+?) -> (.+?)\)/, (m) => e(SqlState.cannotCoerce, `cannot cast type ${pgType(m[1]!)} to ${pgType(m[2]!)}`, true)],
  [/^Out of Range Error: Overflow in \w+ of ([A-Z0-9_]+)/, (m) => e(SqlState.numericValueOutOfRange, `${pgType(m[1]!)} out of range`, true)],
  [/^Out of Range Error: cannot take logarithm of zero/, () => e(SqlState.invalidArgumentForLogarithm, 'cannot take logarithm of zero', true)],
  [/^Out of Range Error: cannot take logarithm of a negative number/, () => e(SqlState.invalidArgumentForLogarithm, 'cannot take logarithm of a negative number', true)],
  [/^Out of Range Error: cannot take square root of a negative number/, () => e(SqlState.invalidArgumentForPowerFunction, 'cannot take square root of a negative number', true)],
  [/^Conversion Error: (?:invalid date field format|invalid timestamp field format)/, () => e(SqlState.invalidDatetimeFormat, 'invalid input syntax for type date/time')],
  [/^Conversion Error: (?:date field value out of range|Date out of range|timestamp field value out of range)/, () => e(SqlState.datetimeFieldOverflow, 'date/time field value out of range')],
  // to_date / to_timestamp (strptime): a field out of its range, or text that does not fit the template
  [/^Invalid Input Error: Could not parse string "([^"\n]*)" according to format specifier[^]*\nError: \w+ out of range/, (m) => e(SqlState.datetimeFieldOverflow, `date/time field value out of range${quoted(m[1])}`)],
  [/^Invalid Input Error: Could not parse string "([^"\n]*)" according to format specifier/, (m) => e(SqlState.invalidDatetimeFormat, `invalid input syntax for type date/time${quoted(m[1])}`)],
  [/^Conversion Error: Malformed JSON/, () => e(SqlState.invalidTextRepresentation, 'invalid input syntax for type json')],
  [/^Conversion Error: extract specifier "([^"]*)" not recognized/, (m) => e(SqlState.invalidParameterValue, `unit "${m[1]}" not recognized`)],
  [/^Binder Error: Referenced column "([^"]+)" (?:was )?not found/, (m) => e(SqlState.undefinedColumn, `column "${m[1]}" does not exist`, true)],
  // `t.x` for a column t does not have: a user's alias names a derived table ("Values list") or a table; lakegate's own are hidden
  [/^Binder Error: (?:Values list|Table) "((?!lg_)[^"]+)" does not have a column named "([^"]+)"/, (m) => e(SqlState.undefinedColumn, `column ${m[1]}.${m[2]} does not exist`, true)],
  [/^Binder Error: Referenced table "([^"]+)" not found/, (m) => e(SqlState.undefinedTable, `missing FROM-clause entry for table "${m[1]}"`, true)],
  [/^Binder Error: Ambiguous reference to column name "([^"]+)"/, (m) => e(SqlState.ambiguousColumn, `column reference "${m[1]}" is ambiguous`, true)],
  // PostgreSQL qualifies the column (t.a); the engine does not say with what.
  [/^Binder Error: column "?([^" ]+)"? must appear in the GROUP BY clause/, (m) => e(SqlState.groupingError, `column "${m[1]}" must appear in the GROUP BY clause or be used in an aggregate function`)],
  [/^Binder Error: Column "([^"]+)" does not exist on (left|right) side of join/, (m) =>
    e(SqlState.undefinedColumn, `column "${m[1]}" specified in USING clause does not exist in ${m[2]} table`, true)],
  // the alias is the user's own (a rewritten table keeps it): the name PostgreSQL reports
  [/^Binder Error: Ambiguous reference to table "(?:[^"]*\.)?([^".]+)" \(duplicate alias/, (m) => e(SqlState.duplicateAlias, `table name "${m[1]}" specified more than once`, true)],
  [/^Binder Error: No function matches the given name and argument types '([^(']+)\(([^)']*)\)'/, (m) => ({ error: missingFunction(m[1]!, m[2]!), exact: true })],
  [/^Catalog Error: Scalar Function with name "?([A-Za-z0-9_.]+)"? does not exist/, (m) => ({ error: missingFunction(m[1]!, null), exact: true })],
  [/^Binder Error: Could not choose a best candidate function for the function call "([^(]+)\(([^)]*)\)"/, (m) => {
    const types = m[2]!.split(/,\s*/).map(pgType);
    const short = m[1]!.split('.').pop()!;
    const what = /^[^A-Za-z_]+$/.test(short) ? `operator is not unique: ${types.join(` ${short} `)}` : `function ${short}(${types.join(', ')}) is not unique`;
    return e(SqlState.ambiguousFunction, what);
  }],
  [/^Binder Error: Cannot compare values of type (.+?) and type (.+?) - /, (m) => e(SqlState.undefinedFunction, `operator does not exist for types ${pgType(m[1]!)} and ${pgType(m[2]!)}`)],
  [/^Binder Error: Cannot mix values of type (.+?) and (.+?) in (CASE|COALESCE|UNION|IN)\b/, (m) =>
    e(SqlState.datatypeMismatch, `${m[3]} types ${pgType(m[1]!)} and ${pgType(m[2]!)} cannot be matched`, true)],
  [/^Binder Error: Cannot deduce template type '\w+' in function: 'list_value'/, () => e(SqlState.datatypeMismatch, 'ARRAY types cannot be matched')],
  [/^Binder Error: Macro ([A-Za-z0-9_.]+)\(\) does not support the supplied arguments/, (m) => ({ error: missingFunction(m[1]!, null), exact: false })],
  [/^Binder Error: Cannot concatenate types (.+?) and (.+?) - /, (m) => e(SqlState.undefinedFunction, `operator does not exist: ${pgType(m[1]!)} || ${pgType(m[2]!)}`, true)],
  [/^Binder Error: ORDER term out of range/, () => e(SqlState.invalidColumnReference, 'ORDER BY position is not in select list')],
  [/^Binder Error: interval cannot be 0/, () => e(SqlState.invalidParameterValue, 'step size cannot equal zero', true)],
  [/^Invalid Input Error: Invalid UTF8 Codepoint (-?\d+)/, (m) =>
    m[1]!.startsWith('-')
      ? e(SqlState.invalidParameterValue, 'character number must be positive', true)
      : e(SqlState.programLimitExceeded, `requested character too large for encoding${quoted(m[1])}`)],
  [/^Invalid Input Error: (?:missing |unexpected |invalid |bad |trailing |no argument for repetition operator|invalid escape)/, () => e(SqlState.invalidRegularExpression, 'invalid regular expression')],
  [/^Out of Memory Error/, () => e(SqlState.outOfMemory, 'out of memory')],
  [/^INTERRUPT Error/, () => e(SqlState.queryCanceled, 'canceling statement due to user request', true)],
  [/^Out of Range Error/, () => e(SqlState.numericValueOutOfRange, 'value out of range')],
  [/^Conversion Error/, () => e(SqlState.invalidTextRepresentation, 'invalid input syntax')],
  [/^Invalid Input Error/, () => e(SqlState.dataException, 'invalid input value')],
  [/^Binder Error/, () => e(SqlState.syntaxErrorOrAccessRuleViolation, 'statement is not valid')],
  [/^Catalog Error/, () => e(SqlState.undefinedObject, 'object does not exist')],
  [/^Parser Error/, () => e(SqlState.syntaxError, 'syntax error')],
  [/^Not implemented Error/, () => e(SqlState.featureNotSupported, 'feature not supported')],
  [/^Permission Error/, () => e(SqlState.insufficientPrivilege, 'permission denied')],
];

export function isInterrupt(err: unknown): boolean {
  return err instanceof Error && /^INTERRUPT Error/.test(err.message);
}

/** An engine message in PostgreSQL's terms, or null when it is not an engine message at all. */
export function mapEngineMessage(message: string): Mapped | null {
  for (const [pattern, map] of RULES) {
    const m = pattern.exec(message);
    if (m) return map(m);
  }
  return null;
}

/**
 * Map anything thrown while serving a statement to a PgError. What the client
 * does not see (the engine's text, a SqlError's internal detail, a stack) is
 * handed to `log` with the reference the client gets.
 */
/**
 * The engine process a session's statement (or its cursors) lived in is gone:
 * PostgreSQL's answer to its backends when one of them crashes. The gateway
 * and other sessions go on; this one reconnects.
 */
export function engineLost(): PgError {
  return new PgError(SqlState.crashShutdown, 'terminating connection because the query engine stopped unexpectedly', {
    severity: 'FATAL',
    detail: 'The engine process running this session\'s statements ended abnormally; its other sessions and every other user\'s were not affected.',
    hint: 'In a moment you should be able to reconnect to the database and repeat your command.',
  });
}

export function toPgError(err: unknown, log: ErrorLog): PgError {
  if (err instanceof PgError) return err;
  if (err instanceof SqlError) {
    if (err.internal === undefined) return new PgError(err.code as SqlStateCode, err.message, { position: err.position, hint: err.hint, detail: err.detail });
    const ref = newReference();
    log(err, ref);
    const detail = err.detail === undefined ? withReference(ref) : `${err.detail}\n${withReference(ref)}`;
    return new PgError(err.code as SqlStateCode, err.message, { position: err.position, hint: err.hint, detail });
  }
  if (err instanceof CatalogLoginError) {
    return new PgError(SqlState.invalidAuthorizationSpecification, `terminating connection: ${err.message}`, {
      severity: 'FATAL',
      detail: 'The catalog answered 401 and the login could not be renewed.',
      hint: 'Connect again to log in.',
    });
  }
  if (err instanceof EngineLostError) {
    if (!err.outOfMemory) return engineLost();
    // The watchdog restarted the user's engine: this statement is lost, the session is not (its next statement gets a new engine).
    return new PgError(SqlState.outOfMemory, 'out of memory', {
      detail: "This user's statements held more memory than the gateway allows one user (engine.userMemoryLimit); the statement was stopped.",
      hint: 'Narrow the query, or run fewer large statements at once.',
    });
  }
  const ref = newReference();
  log(err, ref);
  if (err instanceof CatalogError) {
    // Reachability and malformed answers are the operator's concern; the user learns the catalog is unavailable.
    return new PgError(SqlState.connectionFailure, 'the catalog is unavailable', {
      detail: `${err.kind === 'unavailable' ? 'The Iceberg catalog could not be reached.' : 'The Iceberg catalog sent an answer lakegate could not use.'} ${withReference(ref)}`,
    });
  }
  // not `instanceof Error`: an engine error may come from another realm (the native module under a VM context)
  const message = (err as { message?: unknown } | null)?.message;
  const mapped = typeof message === 'string' ? mapEngineMessage(message) : null;
  if (mapped) {
    const { code, message, hint, detail } = mapped.error;
    return new PgError(code, message, { hint, detail: detail ?? (mapped.exact ? undefined : withReference(ref)) });
  }
  return new PgError(SqlState.internalError, 'internal error', { detail: withReference(ref) });
}
