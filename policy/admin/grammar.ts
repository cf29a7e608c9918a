/**
 * The access-control statements PostgreSQL's grammar does not have (DENY,
 * SHOW GRANTS, CHECK ACCESS, SET TAG, GRANT … TO USER u, ON VIEW, FUTURE
 * TABLES …): a small tokenizer and recursive-descent parser of our own. Any
 * error is 42601 with the 1-based position of the offending token, as
 * PostgreSQL reports a syntax error.
 *
 *   GRANT privs ON object TO grantees [WITH GRANT OPTION]
 *   REVOKE privs ON object FROM grantees
 *   DENY privs ON object TO grantees
 *   SHOW GRANTS [ON object | TO grantee]
 *   CHECK ACCESS priv ON object FOR USER name
 *   SET TAG tag ON COLUMN [catalog.]schema.table.column    (UNSET TAG likewise)
 *   SHOW TAGS ON [[catalog.]schema.]table                  (sqe's)
 *   ALTER TABLE [[catalog.]schema.]table {ALTER [COLUMN] | MODIFY COLUMN} column
 *     SET TAG tag [= value] | UNSET TAG tag                (sqe's; the value is not kept, as sqe keeps none)
 *
 *   privs    := ALL [PRIVILEGES] | MANAGE | priv {, priv}
 *   priv     := SELECT | INSERT | UPDATE | DELETE | TRUNCATE | ALTER | DROP | USAGE
 *             | CREATE | CREATE TABLE | CREATE VIEW | CREATE SCHEMA
 *   object   := [TABLE | VIEW] name | SCHEMA name | DATABASE name | CATALOG name
 *             | {ALL | FUTURE} TABLES IN SCHEMA name | ALL VIEWS IN SCHEMA name
 *   grantee  := [USER | ROLE | GROUP] name
 */
import { MAX_IDENTIFIER_BYTES } from '../../sql/parse.js';
import { SqlError } from '../../sql/errors.js';
import type { Privilege } from './privileges.js';
import type { AdminStatement, Grantee, GranteeType, ObjectRef } from './statement.js';

/** A privilege as written: a bare CREATE means what PostgreSQL's CREATE means on the object named. */
export type WrittenPrivilege = Privilege | 'CREATE_ANY';

/**
 * PostgreSQL's CREATE: on a database the right to create schemas, on a schema
 * the right to create tables and views in it; anywhere else CREATE TABLE
 * (refused there by its level).
 */
export function meaningOf(written: readonly WrittenPrivilege[], object: ObjectRef): Privilege[] {
  const out: Privilege[] = [];
  for (const p of written) {
    const meant: Privilege[] = p !== 'CREATE_ANY' ? [p] : object.kind === 'database' ? ['CREATE_SCHEMA'] : object.kind === 'schema' ? ['CREATE', 'CREATE_VIEW'] : ['CREATE'];
    for (const m of meant) if (!out.includes(m)) out.push(m);
  }
  return out;
}

interface Token {
  /** 'word' (unquoted, upper-cased in `upper`), 'ident' (quoted), 'string', or the punctuation itself */
  type: 'word' | 'ident' | 'string' | '.' | ',' | ';' | '=' | 'end';
  text: string;
  upper: string;
  /** 0-based character offset */
  at: number;
}

function syntaxError(at: number, near: string | null): SqlError {
  return new SqlError('42601', near === null ? 'syntax error at end of input' : `syntax error at or near "${near}"`, at + 1);
}

export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      while (i < n && sql[i] !== '\n') i++;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) throw new SqlError('42601', 'unterminated /* comment', i + 1);
      i = end + 2;
    } else if (c === '"' || c === "'") {
      const start = i;
      let text = '';
      i++;
      for (;;) {
        if (i >= n) throw new SqlError('42601', c === '"' ? 'unterminated quoted identifier' : 'unterminated quoted string', start + 1);
        if (sql[i] === c) {
          if (sql[i + 1] === c) {
            text += c;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        text += sql[i++];
      }
      if (c === '"' && text === '') throw new SqlError('42601', 'zero-length delimited identifier', start + 1);
      out.push({ type: c === '"' ? 'ident' : 'string', text, upper: text, at: start });
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      const start = i;
      while (i < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[i]!)) i++;
      const word = sql.slice(start, i);
      // PostgreSQL folds unquoted identifiers to lower case.
      out.push({ type: 'word', text: word.toLowerCase(), upper: word.toUpperCase(), at: start });
    } else if (c === '.' || c === ',' || c === ';' || c === '=') {
      out.push({ type: c, text: c, upper: c, at: i });
      i++;
    } else {
      throw syntaxError(i, c);
    }
  }
  out.push({ type: 'end', text: '', upper: '', at: n });
  return out;
}

/** A name a policy may hold: sqe refuses what Polaris's resource names would mis-read. */
export function checkName(name: string, at: number): string {
  if (/[/?#%\\\s\u0000-\u001f\u007f]/.test(name)) {
    throw new SqlError('42602', `invalid name "${name}": names may not contain / ? # % \\, white space or control characters`, at + 1);
  }
  if (Buffer.byteLength(name, 'utf8') > MAX_IDENTIFIER_BYTES) {
    throw new SqlError('42622', `identifier "${name}" is too long (at most ${MAX_IDENTIFIER_BYTES} bytes)`, at + 1);
  }
  return name;
}

class Parser {
  private i = 0;
  constructor(private readonly t: Token[]) {}

  private peek(k = 0): Token {
    return this.t[Math.min(this.i + k, this.t.length - 1)]!;
  }
  private fail(tok = this.peek()): never {
    throw syntaxError(tok.at, tok.type === 'end' ? null : tok.type === 'ident' ? `"${tok.text}"` : tok.type === 'string' ? `'${tok.text}'` : tok.text);
  }
  private isWord(w: string, k = 0): boolean {
    const tok = this.peek(k);
    return tok.type === 'word' && tok.upper === w;
  }
  private accept(w: string): boolean {
    if (!this.isWord(w)) return false;
    this.i++;
    return true;
  }
  private expect(w: string): void {
    if (!this.accept(w)) this.fail();
  }
  private name(): string {
    const tok = this.peek();
    if (tok.type !== 'word' && tok.type !== 'ident') this.fail();
    this.i++;
    return checkName(tok.text, tok.at);
  }
  private qualified(max: number): string[] {
    const parts = [this.name()];
    while (this.peek().type === '.') {
      this.i++;
      parts.push(this.name());
    }
    if (parts.length > max) throw new SqlError('42601', `improper qualified name (too many dotted names): ${parts.join('.')}`, this.peek().at + 1);
    return parts;
  }

  statement(): AdminStatement {
    const s = this.body();
    if (this.peek().type === ';') this.i++;
    if (this.peek().type !== 'end') this.fail();
    return s;
  }

  private body(): AdminStatement {
    if (this.accept('GRANT')) return this.grant('grant');
    if (this.accept('DENY')) return this.grant('deny');
    if (this.accept('REVOKE')) return this.grant('revoke');
    if (this.accept('SHOW')) {
      if (this.accept('TAGS')) {
        this.expect('ON');
        this.accept('TABLE');
        return { kind: 'show-tags', table: this.qualified(3) };
      }
      this.expect('GRANTS');
      if (this.accept('ON')) return { kind: 'show-grants', on: this.object() };
      if (this.accept('TO')) return { kind: 'show-grants', to: this.grantee() };
      return { kind: 'show-grants' };
    }
    if (this.accept('CHECK')) {
      this.expect('ACCESS');
      const written = this.isWord('ALL') || this.isWord('MANAGE') ? this.privileges()[0]! : this.privilege();
      this.expect('ON');
      const object = this.object();
      this.expect('FOR');
      this.expect('USER');
      // one privilege is checked: a bare CREATE on a schema asks for tables (CREATE VIEW is asked by name)
      return { kind: 'check-access', privilege: meaningOf([written], object)[0]!, object, user: this.name() };
    }
    if (this.accept('ALTER')) return this.alterTableTag();
    const unset = this.isWord('UNSET');
    if (unset || this.isWord('SET')) {
      this.i++;
      this.expect('TAG');
      const tag = this.tagName();
      this.expect('ON');
      this.expect('COLUMN');
      const at = this.peek();
      const column = this.qualified(4);
      if (column.length < 3) throw new SqlError('42601', 'SET TAG needs a column named schema.table.column', at.at + 1);
      return { kind: unset ? 'unset-tag' : 'set-tag', tag, column };
    }
    this.fail();
  }

  /** A tag as SET TAG names it: unquoted words upper-cased (PII and pii are one tag), quoted as written. */
  private tagName(): string {
    const tok = this.peek();
    if (tok.type !== 'word' && tok.type !== 'ident' && tok.type !== 'string') this.fail();
    this.i++;
    return checkName(tok.type === 'word' ? tok.upper : tok.text, tok.at);
  }

  /** sqe's column-tag DDL: the same statement as SET / UNSET TAG … ON COLUMN. */
  private alterTableTag(): AdminStatement {
    this.expect('TABLE');
    const table = this.qualified(3);
    if (this.accept('MODIFY')) this.expect('COLUMN');
    else {
      this.expect('ALTER');
      this.accept('COLUMN');
    }
    const column = this.name();
    const unset = this.accept('UNSET');
    if (!unset) this.expect('SET');
    this.expect('TAG');
    const tag = this.tagName();
    // sqe reads `name = 'value'` and keeps the name only; so does the Iceberg property both write
    if (!unset && this.peek().type === '=') {
      this.i++;
      const v = this.peek();
      if (v.type !== 'string' && v.type !== 'word' && v.type !== 'ident') this.fail();
      this.i++;
    }
    if (this.peek().type === ',') throw new SqlError('0A000', `${unset ? 'UNSET' : 'SET'} TAG names one tag per statement in lakegate`, this.peek().at + 1, { hint: 'Write one ALTER TABLE statement per tag.' });
    return { kind: unset ? 'unset-tag' : 'set-tag', tag, column: [...table, column], alterTable: true };
  }

  private grant(kind: 'grant' | 'revoke' | 'deny'): AdminStatement {
    const written = this.privileges();
    this.expect('ON');
    const object = this.object();
    const privileges = meaningOf(written, object);
    this.expect(kind === 'revoke' ? 'FROM' : 'TO');
    const grantees = [this.grantee()];
    while (this.peek().type === ',') {
      this.i++;
      grantees.push(this.grantee());
    }
    let grantOption = false;
    if (kind === 'grant' && this.accept('WITH')) {
      this.expect('GRANT');
      this.expect('OPTION');
      grantOption = true;
    }
    return { kind, privileges, object, grantees, grantOption };
  }

  private privileges(): WrittenPrivilege[] {
    if (this.accept('ALL')) {
      this.accept('PRIVILEGES');
      return ['ALL'];
    }
    if (this.accept('MANAGE')) return ['ALL'];
    const out: WrittenPrivilege[] = [this.privilege()];
    while (this.peek().type === ',') {
      this.i++;
      out.push(this.privilege());
    }
    return out;
  }

  private privilege(): WrittenPrivilege {
    for (const p of ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'ALTER', 'DROP', 'USAGE'] as const) if (this.accept(p)) return p;
    if (this.accept('CREATE')) {
      if (this.accept('SCHEMA')) return 'CREATE_SCHEMA';
      if (this.accept('VIEW')) return 'CREATE_VIEW';
      if (this.accept('TABLE')) return 'CREATE';
      return 'CREATE_ANY';
    }
    this.fail();
  }

  private object(): ObjectRef {
    if (this.accept('TABLE')) return { kind: 'table', parts: this.qualified(3) };
    if (this.accept('VIEW')) return { kind: 'view', parts: this.qualified(3) };
    if (this.accept('SCHEMA')) return { kind: 'schema', parts: this.qualified(2) };
    if (this.accept('DATABASE') || this.accept('CATALOG')) return { kind: 'database', parts: this.qualified(1) };
    const wildcard = this.isWord('ALL') ? 'ALL' : this.isWord('FUTURE') ? 'FUTURE' : null;
    if (wildcard && (this.isWord('TABLES', 1) || (wildcard === 'ALL' && this.isWord('VIEWS', 1)))) {
      this.i++;
      const views = this.accept('VIEWS');
      if (!views) this.expect('TABLES');
      this.expect('IN');
      this.expect('SCHEMA');
      const parts = this.qualified(2);
      return { kind: views ? 'all-views' : wildcard === 'ALL' ? 'all-tables' : 'future-tables', parts };
    }
    return { kind: 'table', parts: this.qualified(3) };
  }

  private grantee(): Grantee {
    let type: GranteeType = 'USER';
    // Unquoted, USER / ROLE / GROUP are keywords (USER is reserved in PostgreSQL too); "user" is a name.
    for (const t of ['USER', 'ROLE', 'GROUP'] as const) {
      if (this.accept(t)) {
        type = t;
        break;
      }
    }
    return { type, name: this.name() };
  }
}

/** Parses one access-control statement; 42601 with a position on error. */
export function parseAdminGrammar(sql: string): AdminStatement {
  return new Parser(tokenize(sql)).statement();
}

const IDENT = '(?:"(?:[^"]|"")+"|[A-Za-z_\\u0080-\\uffff][A-Za-z0-9_$\\u0080-\\uffff]*)';
/**
 * sqe's `ALTER TABLE t {ALTER [COLUMN] | MODIFY COLUMN} c {SET | UNSET} TAG`:
 * PostgreSQL's grammar has no TAG there, so no ALTER TABLE of PostgreSQL's is
 * taken for it (an ALTER TABLE this does not match goes to PostgreSQL's grammar).
 */
const LEADING_NOISE = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;
const ALTER_COLUMN_TAG = new RegExp(
  `^\\s*ALTER\\s+TABLE\\s+${IDENT}(?:\\s*\\.\\s*${IDENT}){0,2}\\s+(?:ALTER(?:\\s+COLUMN)?|MODIFY\\s+COLUMN)\\s+${IDENT}\\s+(?:UN)?SET\\s+TAG(?![A-Za-z0-9_$])`,
  'i',
);

/**
 * Whether a message is an access-control statement (its first words), so the
 * session parses it here instead of with PostgreSQL's grammar. A message that
 * does not even tokenize is not one.
 */
export function isAdminText(sql: string): boolean {
  // Leading white space and comments, then the first two words; never the whole text.
  const m = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*([A-Za-z]+)(?:(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)+([A-Za-z]+))?/.exec(sql.slice(0, 512));
  if (!m) return false;
  const [w0, w1] = [m[1]!.toUpperCase(), (m[2] ?? '').toUpperCase()];
  switch (w0) {
    case 'GRANT':
    case 'REVOKE':
    case 'DENY':
      return true;
    case 'SHOW':
      return w1 === 'GRANTS' || w1 === 'TAGS';
    case 'ALTER':
      return w1 === 'TABLE' && ALTER_COLUMN_TAG.test(sql.slice(0, 2048).replace(LEADING_NOISE, ''));
    case 'CHECK':
      return w1 === 'ACCESS';
    case 'SET':
    case 'UNSET':
      return w1 === 'TAG';
    default:
      return false;
  }
}
