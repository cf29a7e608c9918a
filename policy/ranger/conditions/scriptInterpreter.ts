/**
 * Evaluates a parsed Ranger script over script values — no eval, no Function, no vm.
 *
 * Build time (compileScript) refuses, with UnsupportedScriptError:
 *  - syntax outside scriptParser's subset;
 *  - an identifier that is neither declared with `var` nor one of the globals the caller offers;
 *  - an assignment to anything but a declared variable or `ctx.result`.
 * Run time: reading a member of null/undefined, calling a non-function and the like raise
 * ScriptRuntimeError; callers turn that into a failing result.
 *
 * The result of a run is the script's completion value (as `eval` returns it: the value of the
 * last expression statement that produced one; ES2015 rules for `if`), which is what Ranger
 * reads first for a condition's outcome.
 */
import { type Expr, parseScript, type Program, ScriptSyntaxError, type Stmt } from './scriptParser.js';
import {
  compare,
  HostObject,
  isArray,
  isRecord,
  looseEquals,
  plus,
  ScriptFunction,
  ScriptRuntimeError,
  type ScriptValue,
  strictEquals,
  toBoolean,
  toNumber,
  toScriptString,
  typeOf,
} from './scriptValues.js';

export class UnsupportedScriptError extends Error {
  constructor(
    message: string,
    readonly script: string,
  ) {
    super(`${message} in script: ${script}`);
    this.name = 'UnsupportedScriptError';
  }
}

/** Resolves a global name to its value for one run (called lazily, at most once per name). */
export type GlobalResolver = (name: string) => ScriptValue;

export interface CompiledScript {
  readonly source: string;
  /** Runs the script; returns its completion value. Throws ScriptRuntimeError. */
  run(globals: GlobalResolver): ScriptValue;
}

const EMPTY = Symbol('empty completion');
type Completion = ScriptValue | typeof EMPTY;

export function compileScript(source: string, knownGlobals: ReadonlySet<string>): CompiledScript {
  let program: Program;
  try {
    program = parseScript(source);
  } catch (e) {
    if (e instanceof ScriptSyntaxError) throw new UnsupportedScriptError(e.message, source);
    throw e;
  }
  const locals = new Set<string>();
  collectLocals(program.body, locals);
  for (const stmt of program.body) checkStmt(stmt, locals, knownGlobals, source);

  return {
    source,
    run(resolveGlobal: GlobalResolver): ScriptValue {
      const scope = new Map<string, ScriptValue>();
      for (const name of locals) scope.set(name, undefined);
      const globalCache = new Map<string, ScriptValue>();
      const lookup = (name: string): ScriptValue => {
        if (scope.has(name)) return scope.get(name);
        if (!globalCache.has(name)) globalCache.set(name, resolveGlobal(name));
        return globalCache.get(name);
      };
      const interp = new Interpreter(scope, lookup);
      let completion: Completion = EMPTY;
      for (const stmt of program.body) {
        const c = interp.stmt(stmt);
        if (c !== EMPTY) completion = c;
      }
      return completion === EMPTY ? undefined : completion;
    },
  };
}

function collectLocals(body: readonly Stmt[], into: Set<string>): void {
  for (const s of body) {
    if (s.kind === 'var') for (const d of s.declarations) into.add(d.name);
    else if (s.kind === 'block') collectLocals(s.body, into);
    else if (s.kind === 'if') {
      collectLocals([s.consequent], into);
      if (s.alternate) collectLocals([s.alternate], into);
    }
  }
}

function checkStmt(s: Stmt, locals: ReadonlySet<string>, globals: ReadonlySet<string>, src: string): void {
  switch (s.kind) {
    case 'expression':
      return checkExpr(s.expr, locals, globals, src);
    case 'var':
      for (const d of s.declarations) {
        if (globals.has(d.name)) throw new UnsupportedScriptError(`'${d.name}' shadows a Ranger variable`, src);
        if (d.init) checkExpr(d.init, locals, globals, src);
      }
      return;
    case 'if':
      checkExpr(s.test, locals, globals, src);
      checkStmt(s.consequent, locals, globals, src);
      if (s.alternate) checkStmt(s.alternate, locals, globals, src);
      return;
    case 'block':
      for (const b of s.body) checkStmt(b, locals, globals, src);
      return;
    case 'empty':
      return;
  }
}

function checkExpr(e: Expr, locals: ReadonlySet<string>, globals: ReadonlySet<string>, src: string): void {
  const rec = (x: Expr): void => checkExpr(x, locals, globals, src);
  switch (e.kind) {
    case 'literal':
      return;
    case 'identifier':
      if (!locals.has(e.name) && !globals.has(e.name)) throw new UnsupportedScriptError(`unknown name '${e.name}'`, src);
      return;
    case 'member':
      rec(e.object);
      if (e.computed) rec(e.property);
      return;
    case 'call':
      rec(e.callee);
      e.args.forEach(rec);
      return;
    case 'array':
      e.elements.forEach(rec);
      return;
    case 'unary':
      // typeof of an undeclared name is legal JavaScript, but still an unknown name here.
      return rec(e.argument);
    case 'binary':
    case 'logical':
      rec(e.left);
      rec(e.right);
      return;
    case 'conditional':
      rec(e.test);
      rec(e.consequent);
      rec(e.alternate);
      return;
    case 'assign': {
      const t = e.target;
      const isLocal = t.kind === 'identifier' && locals.has(t.name);
      const isCtxResult =
        t.kind === 'member' &&
        !t.computed &&
        t.object.kind === 'identifier' &&
        t.object.name === 'ctx' &&
        t.property.kind === 'literal' &&
        t.property.value === 'result';
      if (!isLocal && !isCtxResult) throw new UnsupportedScriptError('only local variables and ctx.result can be assigned', src);
      if (t.kind === 'member') rec(t.object);
      rec(e.value);
      return;
    }
  }
}

class Interpreter {
  constructor(
    private readonly scope: Map<string, ScriptValue>,
    private readonly lookup: (name: string) => ScriptValue,
  ) {}

  stmt(s: Stmt): Completion {
    switch (s.kind) {
      case 'expression':
        return this.expr(s.expr);
      case 'var':
        for (const d of s.declarations) if (d.init) this.scope.set(d.name, this.expr(d.init));
        return EMPTY;
      case 'if': {
        const branch = toBoolean(this.expr(s.test)) ? s.consequent : s.alternate;
        if (!branch) return undefined;
        const c = this.stmt(branch);
        return c === EMPTY ? undefined : c;
      }
      case 'block': {
        let c: Completion = EMPTY;
        for (const b of s.body) {
          const r = this.stmt(b);
          if (r !== EMPTY) c = r;
        }
        return c;
      }
      case 'empty':
        return EMPTY;
    }
  }

  expr(e: Expr): ScriptValue {
    switch (e.kind) {
      case 'literal':
        return e.value;
      case 'identifier':
        return this.lookup(e.name);
      case 'member':
        return getMember(this.expr(e.object), this.propertyKey(e));
      case 'call':
        return this.call(e);
      case 'array':
        return e.elements.map((x) => this.expr(x));
      case 'unary': {
        const v = this.expr(e.argument);
        if (e.op === '!') return !toBoolean(v);
        if (e.op === '-') return -toNumber(v);
        if (e.op === '+') return toNumber(v);
        return typeOf(v);
      }
      case 'binary':
        return binary(e.op, this.expr(e.left), this.expr(e.right));
      case 'logical': {
        const left = this.expr(e.left);
        if (e.op === '&&') return toBoolean(left) ? this.expr(e.right) : left;
        return toBoolean(left) ? left : this.expr(e.right);
      }
      case 'conditional':
        return toBoolean(this.expr(e.test)) ? this.expr(e.consequent) : this.expr(e.alternate);
      case 'assign': {
        const value = this.expr(e.value);
        const t = e.target;
        if (t.kind === 'identifier') {
          this.scope.set(t.name, value);
        } else if (t.kind === 'member') {
          const target = this.expr(t.object);
          if (!(target instanceof HostObject) || !target.set(this.propertyKey(t), value))
            throw new ScriptRuntimeError('cannot assign to that member');
        }
        return value;
      }
    }
  }

  private propertyKey(e: Extract<Expr, { kind: 'member' }>): string {
    return e.computed ? toScriptString(this.expr(e.property)) : String((e.property as { value: unknown }).value);
  }

  private call(e: Extract<Expr, { kind: 'call' }>): ScriptValue {
    const fn = this.expr(e.callee);
    if (!(fn instanceof ScriptFunction)) throw new ScriptRuntimeError('not a function');
    return fn.invoke(e.args.map((a) => this.expr(a)));
  }
}

function binary(op: Extract<Expr, { kind: 'binary' }>['op'], a: ScriptValue, b: ScriptValue): ScriptValue {
  switch (op) {
    case '==':
      return looseEquals(a, b);
    case '!=':
      return !looseEquals(a, b);
    case '===':
      return strictEquals(a, b);
    case '!==':
      return !strictEquals(a, b);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(op, a, b);
    case '+':
      return plus(a, b);
    case '-':
      return toNumber(a) - toNumber(b);
    case '*':
      return toNumber(a) * toNumber(b);
    case '/':
      return toNumber(a) / toNumber(b);
    case '%':
      return toNumber(a) % toNumber(b);
  }
}

const fn = (name: string, invoke: (args: readonly ScriptValue[]) => ScriptValue): ScriptFunction => new ScriptFunction(name, invoke);
const str = (v: ScriptValue): string => toScriptString(v);

/** Member read with JavaScript's rules for the few built-ins Ranger scripts use. */
export function getMember(obj: ScriptValue, name: string): ScriptValue {
  if (obj === undefined || obj === null) throw new ScriptRuntimeError(`cannot read '${name}' of ${String(obj)}`);
  if (obj instanceof HostObject) return obj.get(name);
  if (typeof obj === 'string') return stringMember(obj, name);
  if (isArray(obj)) return arrayMember(obj, name);
  if (isRecord(obj)) return Object.prototype.hasOwnProperty.call(obj, name) ? obj[name] : undefined;
  return undefined;
}

function stringMember(s: string, name: string): ScriptValue {
  if (/^\d+$/.test(name)) return s[Number(name)];
  switch (name) {
    case 'length':
      return s.length;
    case 'indexOf':
      return fn(name, (a) => s.indexOf(str(a[0])));
    case 'lastIndexOf':
      return fn(name, (a) => s.lastIndexOf(str(a[0])));
    case 'includes':
    case 'contains':
      return fn(name, (a) => s.includes(str(a[0])));
    case 'startsWith':
      return fn(name, (a) => s.startsWith(str(a[0])));
    case 'endsWith':
      return fn(name, (a) => s.endsWith(str(a[0])));
    case 'toLowerCase':
      return fn(name, () => s.toLowerCase());
    case 'toUpperCase':
      return fn(name, () => s.toUpperCase());
    case 'trim':
      return fn(name, () => s.trim());
    case 'equals':
      return fn(name, (a) => s === a[0]);
    case 'equalsIgnoreCase':
      return fn(name, (a) => typeof a[0] === 'string' && s.toLowerCase() === a[0].toLowerCase());
    case 'split':
      return fn(name, (a) => (a[0] === undefined ? [s] : s.split(str(a[0]))));
    case 'substring':
      return fn(name, (a) => s.substring(toNumber(a[0]), a[1] === undefined ? undefined : toNumber(a[1])));
    case 'charAt':
      return fn(name, (a) => s.charAt(toNumber(a[0])));
    default:
      return undefined;
  }
}

function arrayMember(arr: readonly ScriptValue[], name: string): ScriptValue {
  if (/^\d+$/.test(name)) return arr[Number(name)];
  switch (name) {
    case 'length':
      return arr.length;
    case 'indexOf':
      return fn(name, (a) => arr.findIndex((x) => strictEquals(x, a[0])));
    case 'includes':
      return fn(name, (a) => arr.some((x) => strictEquals(x, a[0]) || (Number.isNaN(x) && Number.isNaN(a[0]))));
    case 'intersects': // Ranger's polyfill: any element of this array in the other one
      return fn(name, (a) => {
        const other = a[0];
        return isArray(other) && arr.some((x) => other.some((y) => strictEquals(x, y)));
      });
    case 'join':
      return fn(name, (a) => arr.map((x) => (x === undefined || x === null ? '' : str(x))).join(a[0] === undefined ? ',' : str(a[0])));
    default:
      return undefined;
  }
}
