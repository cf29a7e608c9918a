/**
 * The statement text an audit event may carry: every literal replaced by a
 * numbered placeholder (`$n`, as pg_stat_statements writes them, numbered past
 * the statement's own parameters) and every comment dropped, found with
 * PostgreSQL's own scanner (libpg-query). A password in CREATE ROLE, a value
 * in a predicate or a key in a function call never reaches the audit trail.
 *
 * Text the scanner cannot read is not recorded at all (fail closed), and the
 * result is cut at Ranger's request-data bound.
 */
import { scanSync } from 'libpg-query';
import { loadParser } from '../../sql/parse.js';

/** Ranger's AuthzAuditEvent MAX_REQUEST_DATA_FIELD_SIZE. */
export const MAX_REQUEST_DATA_CHARS = 1800;
export const UNREADABLE = '<statement not recorded: it does not scan>';

interface Token {
  start: number;
  end: number;
  text: string;
  tokenName: string;
}

const LITERAL_NAMES = new Set(['SCONST', 'USCONST', 'BCONST', 'XCONST', 'ICONST', 'FCONST']);
const COMMENT_NAMES = new Set(['SQL_COMMENT', 'C_COMMENT']);

/**
 * The scanner names some constant tokens UNKNOWN (bit strings, hex strings,
 * Unicode strings); a token of that kind is a literal by its first characters.
 */
function isLiteral(t: Token): boolean {
  if (LITERAL_NAMES.has(t.tokenName)) return true;
  if (t.tokenName !== 'UNKNOWN') return false;
  const s = t.text;
  return s.startsWith("'") || /^([bBxXeEnN]|[uU]&)'/.test(s) || /^\$[^0-9]?[^$]*\$/.test(s) || /^\.?[0-9]/.test(s);
}

function paramNumber(t: Token): number {
  return t.tokenName === 'PARAM' ? Number(t.text.slice(1)) || 0 : 0;
}

/** Load the scanner (once); redact() needs it. */
export const loadRedactor = loadParser;

/** Only the start of a long statement is scanned (the output is cut anyway); past it, the whole. */
const SCAN_PREFIX_CHARS = 16 * 1024;
const MEMO_SIZE = 1000;
/** Only short texts are remembered, so the memo stays within a few MB. */
const MEMO_TEXT_CHARS = 4096;
const memo = new Map<string, string>();

/** The redacted text of a statement (short ones remembered: a prepared statement runs again and again). */
export function redact(sql: string): string {
  if (sql.length > MEMO_TEXT_CHARS) return redactText(sql);
  const hit = memo.get(sql);
  if (hit !== undefined) return hit;
  const out = redactText(sql);
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(sql, out);
  return out;
}

function scan(sql: string): Token[] {
  return (scanSync(sql) as { tokens: Token[] }).tokens;
}

function redactText(sql: string): string {
  let tokens: Token[];
  try {
    try {
      tokens = sql.length > SCAN_PREFIX_CHARS ? scan(sql.slice(0, SCAN_PREFIX_CHARS)) : scan(sql);
    } catch (e) {
      // The cut fell inside a string or a comment: scan it all.
      if (sql.length <= SCAN_PREFIX_CHARS) throw e;
      tokens = scan(sql);
    }
  } catch {
    return UNREADABLE;
  }
  let next = tokens.reduce((m, t) => Math.max(m, paramNumber(t)), 0);
  let out = '';
  let prevEnd = -1;
  let space = false;
  for (const t of tokens) {
    // A comment counts as the space it stands in for.
    space ||= prevEnd >= 0 && t.start > prevEnd;
    prevEnd = t.end;
    if (COMMENT_NAMES.has(t.tokenName)) {
      space = true;
      continue;
    }
    if (out !== '' && space) out += ' ';
    space = false;
    out += isLiteral(t) ? `$${++next}` : t.text;
    if (out.length > MAX_REQUEST_DATA_CHARS) return `${out.slice(0, MAX_REQUEST_DATA_CHARS - 1)}…`;
  }
  return out;
}
