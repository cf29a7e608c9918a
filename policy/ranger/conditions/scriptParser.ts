/**
 * Parser for the small JavaScript subset Ranger policies use in script conditions and
 * `${{…}}` request expressions. Hand-written recursive descent: the statement forms Ranger
 * scripts use (`var`, `if … else`, blocks, `;`-separated statements, `ctx.result = …`) are
 * outside what expression-only parsers such as jsep cover, and owning the grammar lets
 * anything outside it be refused at build time.
 *
 * Supported: literals (number, 'string', "string", true, false, null, undefined), identifiers,
 * member access `a.b` / `a['b']`, calls, array literals, unary `! - + typeof`, binary
 * `* / % + - < <= > >= == != === !==`, `&& ||`, `?:`, assignment `=`, statements `var/let/const`,
 * `if (…) … else …`, `{ … }`, empty `;`, expression statements. Comments `//` and block comments.
 * Nothing else (functions, loops, `new`, regex literals, `this` …) parses.
 */

export class ScriptSyntaxError extends Error {
  constructor(message: string, readonly position: number) {
    super(`${message} at ${position}`);
    this.name = 'ScriptSyntaxError';
  }
}

export type Expr =
  | { kind: 'literal'; value: string | number | boolean | null | undefined }
  | { kind: 'identifier'; name: string }
  | { kind: 'member'; object: Expr; property: Expr; computed: boolean }
  | { kind: 'call'; callee: Expr; args: Expr[] }
  | { kind: 'array'; elements: Expr[] }
  | { kind: 'unary'; op: '!' | '-' | '+' | 'typeof'; argument: Expr }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr }
  | { kind: 'logical'; op: '&&' | '||'; left: Expr; right: Expr }
  | { kind: 'conditional'; test: Expr; consequent: Expr; alternate: Expr }
  | { kind: 'assign'; target: Expr; value: Expr };

export type BinaryOp = '*' | '/' | '%' | '+' | '-' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '===' | '!==';

export type Stmt =
  | { kind: 'expression'; expr: Expr }
  | { kind: 'var'; declarations: Array<{ name: string; init: Expr | undefined }> }
  | { kind: 'if'; test: Expr; consequent: Stmt; alternate: Stmt | undefined }
  | { kind: 'block'; body: Stmt[] }
  | { kind: 'empty' };

export interface Program {
  body: Stmt[];
}

type Token =
  | { type: 'number'; value: number; pos: number }
  | { type: 'string'; value: string; pos: number }
  | { type: 'name'; value: string; pos: number }
  | { type: 'punct'; value: string; pos: number }
  | { type: 'eof'; pos: number };

const PUNCTUATORS = ['===', '!==', '==', '!=', '<=', '>=', '&&', '||', '(', ')', '[', ']', '{', '}', '.', ',', ';', '?', ':', '!', '=', '<', '>', '+', '-', '*', '/', '%'];

const RESERVED = new Set([
  'break', 'case', 'catch', 'class', 'continue', 'debugger', 'default', 'delete', 'do', 'export', 'extends', 'finally',
  'for', 'function', 'import', 'in', 'instanceof', 'new', 'return', 'super', 'switch', 'this', 'throw', 'try', 'void',
  'while', 'with', 'yield', 'await', 'async',
]);

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (src.startsWith('//', i)) {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (src.startsWith('/*', i)) {
      const end = src.indexOf('*/', i + 2);
      if (end < 0) throw new ScriptSyntaxError('unterminated comment', i);
      i = end + 2;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/.exec(src.slice(i))!;
      tokens.push({ type: 'number', value: Number(m[0]), pos: i });
      i += m[0].length;
      if (/[A-Za-z_$0-9]/.test(src[i] ?? '')) throw new ScriptSyntaxError('malformed number', i);
    } else if (c === "'" || c === '"') {
      const start = i;
      let value = '';
      i++;
      for (;;) {
        if (i >= src.length || src[i] === '\n') throw new ScriptSyntaxError('unterminated string', start);
        const ch = src[i]!;
        if (ch === c) {
          i++;
          break;
        }
        if (ch === '\\') {
          const e = src[i + 1];
          const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };
          if (e === undefined) throw new ScriptSyntaxError('unterminated string', start);
          if (e === 'u') {
            const hex = /^[0-9a-fA-F]{4}/.exec(src.slice(i + 2));
            if (!hex) throw new ScriptSyntaxError('bad \\u escape', i);
            value += String.fromCharCode(parseInt(hex[0], 16));
            i += 6;
          } else if (e === 'x') {
            const hex = /^[0-9a-fA-F]{2}/.exec(src.slice(i + 2));
            if (!hex) throw new ScriptSyntaxError('bad \\x escape', i);
            value += String.fromCharCode(parseInt(hex[0], 16));
            i += 4;
          } else {
            value += simple[e] ?? e;
            i += 2;
          }
        } else {
          value += ch;
          i++;
        }
      }
      tokens.push({ type: 'string', value, pos: start });
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(src.slice(i))!;
      tokens.push({ type: 'name', value: m[0], pos: i });
      i += m[0].length;
    } else {
      const p = PUNCTUATORS.find((q) => src.startsWith(q, i));
      if (!p) throw new ScriptSyntaxError(`unexpected character '${c}'`, i);
      tokens.push({ type: 'punct', value: p, pos: i });
      i += p.length;
    }
  }
  tokens.push({ type: 'eof', pos: src.length });
  return tokens;
}

class Parser {
  private i = 0;

  constructor(private readonly tokens: Token[]) {}

  parseProgram(): Program {
    const body: Stmt[] = [];
    while (this.peek().type !== 'eof') body.push(this.statement());
    return { body };
  }

  private peek(): Token {
    return this.tokens[this.i]!;
  }

  private next(): Token {
    return this.tokens[this.i++]!;
  }

  private isPunct(value: string): boolean {
    const t = this.peek();
    return t.type === 'punct' && t.value === value;
  }

  private isName(value: string): boolean {
    const t = this.peek();
    return t.type === 'name' && t.value === value;
  }

  private eatPunct(value: string): boolean {
    if (!this.isPunct(value)) return false;
    this.i++;
    return true;
  }

  private expectPunct(value: string): void {
    if (!this.eatPunct(value)) throw new ScriptSyntaxError(`expected '${value}'`, this.peek().pos);
  }

  /** `;` or an automatically inserted one (end of input, before `}`). Newline ASI is not modelled. */
  private endStatement(): void {
    if (this.eatPunct(';')) return;
    if (this.peek().type === 'eof' || this.isPunct('}')) return;
    throw new ScriptSyntaxError("expected ';'", this.peek().pos);
  }

  private statement(): Stmt {
    if (this.eatPunct(';')) return { kind: 'empty' };
    if (this.eatPunct('{')) {
      const body: Stmt[] = [];
      while (!this.eatPunct('}')) {
        if (this.peek().type === 'eof') throw new ScriptSyntaxError("expected '}'", this.peek().pos);
        body.push(this.statement());
      }
      return { kind: 'block', body };
    }
    if (this.isName('var') || this.isName('let') || this.isName('const')) {
      this.next();
      const declarations: Array<{ name: string; init: Expr | undefined }> = [];
      do {
        const name = this.next();
        if (name.type !== 'name' || RESERVED.has(name.value)) throw new ScriptSyntaxError('expected a variable name', name.pos);
        const init = this.eatPunct('=') ? this.assignment() : undefined;
        declarations.push({ name: name.value, init });
      } while (this.eatPunct(','));
      this.endStatement();
      return { kind: 'var', declarations };
    }
    if (this.isName('if')) {
      this.next();
      this.expectPunct('(');
      const test = this.expression();
      this.expectPunct(')');
      const consequent = this.statement();
      const alternate = this.isName('else') ? (this.next(), this.statement()) : undefined;
      return { kind: 'if', test, consequent, alternate };
    }
    const expr = this.expression();
    this.endStatement();
    return { kind: 'expression', expr };
  }

  expression(): Expr {
    return this.assignment();
  }

  private assignment(): Expr {
    const left = this.conditional();
    if (this.isPunct('=')) {
      const pos = this.next().pos;
      if (left.kind !== 'identifier' && left.kind !== 'member') throw new ScriptSyntaxError('invalid assignment target', pos);
      return { kind: 'assign', target: left, value: this.assignment() };
    }
    return left;
  }

  private conditional(): Expr {
    const test = this.logicalOr();
    if (!this.eatPunct('?')) return test;
    const consequent = this.assignment();
    this.expectPunct(':');
    const alternate = this.assignment();
    return { kind: 'conditional', test, consequent, alternate };
  }

  private logicalOr(): Expr {
    let left = this.logicalAnd();
    while (this.eatPunct('||')) left = { kind: 'logical', op: '||', left, right: this.logicalAnd() };
    return left;
  }

  private logicalAnd(): Expr {
    let left = this.binary(0);
    while (this.eatPunct('&&')) left = { kind: 'logical', op: '&&', left, right: this.binary(0) };
    return left;
  }

  private static readonly LEVELS: readonly (readonly BinaryOp[])[] = [
    ['==', '!=', '===', '!=='],
    ['<', '<=', '>', '>='],
    ['+', '-'],
    ['*', '/', '%'],
  ];

  private binary(level: number): Expr {
    if (level >= Parser.LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.peek();
      const op = t.type === 'punct' ? Parser.LEVELS[level]!.find((o) => o === t.value) : undefined;
      if (!op) return left;
      this.next();
      left = { kind: 'binary', op, left, right: this.binary(level + 1) };
    }
  }

  private unary(): Expr {
    const t = this.peek();
    if (t.type === 'punct' && (t.value === '!' || t.value === '-' || t.value === '+')) {
      this.next();
      return { kind: 'unary', op: t.value, argument: this.unary() };
    }
    if (t.type === 'name' && t.value === 'typeof') {
      this.next();
      return { kind: 'unary', op: 'typeof', argument: this.unary() };
    }
    return this.postfix();
  }

  private postfix(): Expr {
    let expr = this.primary();
    for (;;) {
      if (this.eatPunct('.')) {
        const name = this.next();
        if (name.type !== 'name') throw new ScriptSyntaxError('expected a property name', name.pos);
        expr = { kind: 'member', object: expr, property: { kind: 'literal', value: name.value }, computed: false };
      } else if (this.eatPunct('[')) {
        const property = this.expression();
        this.expectPunct(']');
        expr = { kind: 'member', object: expr, property, computed: true };
      } else if (this.eatPunct('(')) {
        const args: Expr[] = [];
        if (!this.eatPunct(')')) {
          do args.push(this.assignment());
          while (this.eatPunct(','));
          this.expectPunct(')');
        }
        expr = { kind: 'call', callee: expr, args };
      } else {
        return expr;
      }
    }
  }

  private primary(): Expr {
    const t = this.next();
    switch (t.type) {
      case 'number':
      case 'string':
        return { kind: 'literal', value: t.value };
      case 'name':
        if (t.value === 'true') return { kind: 'literal', value: true };
        if (t.value === 'false') return { kind: 'literal', value: false };
        if (t.value === 'null') return { kind: 'literal', value: null };
        if (t.value === 'undefined') return { kind: 'literal', value: undefined };
        if (RESERVED.has(t.value) || ['var', 'let', 'const', 'if', 'else', 'typeof'].includes(t.value))
          throw new ScriptSyntaxError(`'${t.value}' is not supported`, t.pos);
        return { kind: 'identifier', name: t.value };
      case 'punct':
        if (t.value === '(') {
          const e = this.expression();
          this.expectPunct(')');
          return e;
        }
        if (t.value === '[') {
          const elements: Expr[] = [];
          if (!this.eatPunct(']')) {
            do elements.push(this.assignment());
            while (this.eatPunct(','));
            this.expectPunct(']');
          }
          return { kind: 'array', elements };
        }
        throw new ScriptSyntaxError(`unexpected '${t.value}'`, t.pos);
      case 'eof':
        throw new ScriptSyntaxError('unexpected end of script', t.pos);
    }
  }
}

export function parseScript(source: string): Program {
  return new Parser(tokenize(source)).parseProgram();
}
