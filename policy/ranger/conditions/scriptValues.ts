/**
 * The values a Ranger script computes with, and the JavaScript operator semantics over them
 * (loose equality, relational comparison with string→number conversion, truthiness) — the
 * behaviour Ranger's Nashorn/GraalJS engine gives `tagAttr.get('score') < 2` or `TAG.level == 'top'`.
 *
 * No JavaScript object of the host is ever handed to a script: records are null-prototype
 * copies, and host objects expose an explicit member table.
 */

export type ScriptValue =
  | undefined
  | null
  | boolean
  | number
  | string
  | readonly ScriptValue[]
  | ScriptRecord
  | HostObject
  | ScriptFunction;

/** A plain data object (JSON-like), always created with a null prototype. */
export interface ScriptRecord {
  readonly [key: string]: ScriptValue;
}

/** An object with a fixed set of members (Ranger's `ctx`, `tag`, a Java Map …). */
export abstract class HostObject {
  /** Property read; undefined for unknown names. */
  abstract get(name: string): ScriptValue;
  /** Property write; false when the property cannot be written. */
  set(_name: string, _value: ScriptValue): boolean {
    return false;
  }
  /** How String(obj) reads. */
  toScriptString(): string {
    return '[object Object]';
  }
}

export class ScriptFunction {
  constructor(
    readonly name: string,
    readonly invoke: (args: readonly ScriptValue[]) => ScriptValue,
  ) {}
}

/** A runtime failure (TypeError in JavaScript terms); a condition reading it fails. */
export class ScriptRuntimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptRuntimeError';
  }
}

export function record(entries: Iterable<readonly [string, ScriptValue]>): ScriptRecord {
  const out: Record<string, ScriptValue> = Object.create(null) as Record<string, ScriptValue>;
  for (const [k, v] of entries) out[k] = v;
  return out;
}

export function isRecord(v: ScriptValue): v is ScriptRecord {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof HostObject) && !(v instanceof ScriptFunction);
}

export function isArray(v: ScriptValue): v is readonly ScriptValue[] {
  return Array.isArray(v);
}

export function toBoolean(v: ScriptValue): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  if (typeof v === 'string') return v.length > 0;
  return true;
}

export function toNumber(v: ScriptValue): number {
  if (v === undefined) return NaN;
  if (v === null) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const s = v.trim();
    if (s === '') return 0;
    if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) || /^0[xX][0-9a-fA-F]+$/.test(s)) return Number(s);
    if (/^[+-]?Infinity$/.test(s)) return Number(s);
    return NaN;
  }
  return toNumber(toPrimitive(v));
}

export function toScriptString(v: ScriptValue): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (typeof v === 'string') return v;
  if (isArray(v)) return v.map((e) => (e === undefined || e === null ? '' : toScriptString(e))).join(',');
  if (v instanceof HostObject) return v.toScriptString();
  if (v instanceof ScriptFunction) return `function ${v.name}() { [native code] }`;
  return '[object Object]';
}

function toPrimitive(v: ScriptValue): undefined | null | boolean | number | string {
  if (v === undefined || v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
  return toScriptString(v);
}

export function typeOf(v: ScriptValue): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'object';
  if (v instanceof ScriptFunction) return 'function';
  return typeof v === 'object' ? 'object' : typeof v;
}

export function strictEquals(a: ScriptValue, b: ScriptValue): boolean {
  return a === b; // NaN !== NaN, objects by identity — as in JavaScript
}

export function looseEquals(a: ScriptValue, b: ScriptValue): boolean {
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (a === undefined || a === null || b === undefined || b === null) return false;
  const pa = typeof a === 'object' ? null : a;
  const pb = typeof b === 'object' ? null : b;
  if (pa === null && pb === null) return a === b;
  if (typeof a === typeof b) return a === b;
  if (typeof a === 'boolean') return looseEquals(toNumber(a), b);
  if (typeof b === 'boolean') return looseEquals(a, toNumber(b));
  if (typeof a === 'object') return looseEquals(toPrimitive(a), b);
  if (typeof b === 'object') return looseEquals(a, toPrimitive(b));
  // number vs string
  return toNumber(a) === toNumber(b);
}

/** `a < b` etc.: strings compare by UTF-16 code units, everything else numerically. */
export function compare(op: '<' | '<=' | '>' | '>=', a: ScriptValue, b: ScriptValue): boolean {
  const pa = toPrimitive(a);
  const pb = toPrimitive(b);
  if (typeof pa === 'string' && typeof pb === 'string') {
    switch (op) {
      case '<':
        return pa < pb;
      case '<=':
        return pa <= pb;
      case '>':
        return pa > pb;
      case '>=':
        return pa >= pb;
    }
  }
  const na = toNumber(pa);
  const nb = toNumber(pb);
  switch (op) {
    case '<':
      return na < nb;
    case '<=':
      return na <= nb;
    case '>':
      return na > nb;
    case '>=':
      return na >= nb;
  }
}

export function plus(a: ScriptValue, b: ScriptValue): ScriptValue {
  const pa = toPrimitive(a);
  const pb = toPrimitive(b);
  if (typeof pa === 'string' || typeof pb === 'string') return toScriptString(pa) + toScriptString(pb);
  return toNumber(pa) + toNumber(pb);
}

/** JSON.stringify over script values (Ranger's `J(…)`). */
export function toJson(v: ScriptValue): string | undefined {
  const plain = (x: ScriptValue): unknown => {
    if (x === undefined || x instanceof ScriptFunction) return undefined;
    if (x === null || typeof x !== 'object') return x;
    if (isArray(x)) return x.map((e) => plain(e) ?? null);
    if (x instanceof HostObject) return toScriptString(x);
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(x)) o[k] = plain(x[k]);
    return o;
  };
  return JSON.stringify(plain(v));
}
