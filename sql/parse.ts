/**
 * Parsing with the real PostgreSQL grammar (libpg-query, WASM). A statement
 * that does not parse is refused here; it is never forwarded as text.
 */
import { loadModule, parseSync, scanSync } from 'libpg-query';
import { SqlError } from './errors.js';
import { checkTree, DEFAULT_TREE_LIMITS, type TreeLimits } from './limits.js';
import { nodeKind, type PgNode } from './walk.js';

export interface ParsedStatement {
  /** the RawStmt's `stmt`, a wrapped node such as `{ SelectStmt: {...} }` */
  node: PgNode;
  /** node kind, e.g. 'SelectStmt', 'VariableSetStmt' */
  kind: string;
  /** this statement's own text, sliced from the input */
  text: string;
  /** 0-based character offset of `text` in the input, to re-base error positions */
  offset: number;
}

/** PostgreSQL's NAMEDATALEN - 1: longer names are silently truncated by the parser. */
export const MAX_IDENTIFIER_BYTES = 63;

let loaded: Promise<void> | undefined;

/** Load the WASM module once; every later call returns the same promise. */
export function loadParser(): Promise<void> {
  loaded ??= loadModule();
  return loaded;
}

interface LibpgError {
  message?: string;
  sqlDetails?: { message: string; cursorPosition: number };
}

/**
 * libpg-query's statement and token locations are byte offsets into the UTF-8 text; PostgreSQL
 * reports character positions. Convert (identity for ASCII).
 */
function byteToCharOffset(text: string, byteOffset: number): number {
  const buf = Buffer.from(text, 'utf8');
  return buf.subarray(0, Math.max(0, byteOffset)).toString('utf8').length;
}

function parseFailure(e: unknown): SqlError {
  const err = e as LibpgError;
  const details = err.sqlDetails;
  if (details) {
    // cursorPosition is already a 0-based character offset (unlike stmt_location and scan offsets, which are bytes)
    return new SqlError('42601', details.message, details.cursorPosition + 1);
  }
  // The parser's JavaScript side recurses over the tree it returns: a tree deep
  // enough to exhaust the stack is what PostgreSQL reports as 54001 too.
  if (e instanceof RangeError) {
    return new SqlError('54001', 'stack depth limit exceeded', undefined, { internal: e.message });
  }
  return new SqlError('54001', 'statement is too complex to parse', undefined, { internal: String(err.message ?? e) });
}

/**
 * Parsed statements by text and limits: clients send the same statements again
 * and again (dashboards, drivers' catalog queries), and a plan is reused only
 * for the very parse it was made from. The results are shared, so nothing may
 * change a ParsedStatement (planQuery works on a copy).
 */
const parsed = new Map<string, ParsedStatement[]>();
const PARSE_CACHE_SIZE = 512;
const PARSE_CACHE_MAX_TEXT = 64 * 1024;
const cacheKey = (text: string, limits: TreeLimits): string => `${limits.maxNodes}/${limits.maxDepth}\u0000${text}`;

/** The statements of a text parsed before under the same limits, if remembered. */
export function cachedParse(text: string, limits: TreeLimits = DEFAULT_TREE_LIMITS): ParsedStatement[] | undefined {
  const key = cacheKey(text, limits);
  const hit = parsed.get(key);
  if (hit) {
    parsed.delete(key);
    parsed.set(key, hit);
  }
  return hit;
}

/** Remember a parse (of a text short enough to keep). */
export function rememberParse(text: string, limits: TreeLimits, result: ParsedStatement[]): void {
  if (text.length > PARSE_CACHE_MAX_TEXT) return;
  if (parsed.size >= PARSE_CACHE_SIZE) parsed.delete(parsed.keys().next().value!);
  parsed.set(cacheKey(text, limits), result);
}

/**
 * Parse a query message into its statements. The whole message is held to
 * `limits` (nodes and nesting summed over its statements) before anything
 * else looks at it.
 */
export function parseStatements(text: string, limits: TreeLimits = DEFAULT_TREE_LIMITS): ParsedStatement[] {
  const hit = cachedParse(text, limits);
  if (hit) return hit;
  const result = parseStatementsUncached(text, limits);
  rememberParse(text, limits, result);
  return result;
}

/** parseStatements without the cache (what a first sight of a statement costs). */
export function parseStatementsUncached(text: string, limits: TreeLimits = DEFAULT_TREE_LIMITS): ParsedStatement[] {
  // libpg-query rejects the empty string ("Query cannot be empty"); PostgreSQL answers EmptyQueryResponse.
  if (text.trim() === '') return [];
  let result: { stmts?: { stmt?: PgNode; stmt_location?: number; stmt_len?: number }[] };
  try {
    result = parseSync(text) as typeof result;
  } catch (e) {
    throw parseFailure(e);
  }
  const raws = (result.stmts ?? []).filter((r) => r.stmt && nodeKind(r.stmt));
  const measure = checkTree(raws.map((r) => r.stmt), limits);
  // The scanner costs more than the parse: only when some name could have been truncated.
  if (measure.maybeTruncatedIdentifier) checkIdentifierLengths(text);
  const bytes = Buffer.from(text, 'utf8');
  const out: ParsedStatement[] = [];
  // Offsets rise statement by statement: convert each from the previous one, never from the start.
  let atByte = 0;
  let atChar = 0;
  for (const raw of raws) {
    const startByte = Math.max(atByte, raw.stmt_location ?? 0);
    // stmt_len 0 means "the rest of the string".
    const endByte = raw.stmt_len ? startByte + raw.stmt_len : bytes.length;
    atChar += bytes.subarray(atByte, startByte).toString('utf8').length;
    atByte = startByte;
    const slice = bytes.subarray(startByte, endByte).toString('utf8');
    out.push({ node: raw.stmt!, kind: nodeKind(raw.stmt)!, text: slice.trim(), offset: atChar });
  }
  return out;
}

/** Parse text that must hold exactly one statement (e.g. a Parse message). */
export function parseOne(text: string, limits: TreeLimits = DEFAULT_TREE_LIMITS): ParsedStatement | undefined {
  const stmts = parseStatements(text, limits);
  if (stmts.length > 1) throw new SqlError('42601', 'cannot insert multiple commands into a prepared statement');
  return stmts[0];
}

/**
 * The parser truncates identifiers to 63 bytes without telling; policies are
 * looked up by name, so a truncated name could match a different object.
 * Refuse instead. Identifiers are found with the real scanner.
 */
function checkIdentifierLengths(text: string): void {
  const { tokens } = scanSync(text);
  for (const t of tokens) {
    let ident: string | undefined;
    if (t.tokenName === 'IDENT') {
      ident = t.text.startsWith('"') ? t.text.slice(1, -1).replace(/""/g, '"') : t.text;
    } else if (/^U&"/i.test(t.text)) {
      ident = t.text.slice(3, -1);
    }
    if (ident !== undefined && Buffer.byteLength(ident, 'utf8') > MAX_IDENTIFIER_BYTES) {
      throw new SqlError(
        '42622',
        `identifier "${ident}" is too long (maximum ${MAX_IDENTIFIER_BYTES} bytes)`,
        byteToCharOffset(text, t.start) + 1,
      );
    }
  }
}
