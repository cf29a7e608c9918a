/**
 * The names a Ranger script sees (RangerRequestScriptEvaluator, re-derived), built from a
 * ConditionContext:
 *  - `ctx`: the request with methods (`isAccessedBefore('attr')`, `isInRole('r')`,
 *    `getRequestContextAttribute('k')`, `result` …);
 *  - `tag` (the current tag: `type`, `attributes`, `matchType`) and `tagAttr` (its attributes,
 *    a Java Map: `tagAttr.get('k')` or `tagAttr.k`);
 *  - the JSON views `REQ`, `RES`, `USER`, `UGNAMES`, `UG`, `UGA`, `URNAMES`, `TAG`, `TAGS`,
 *    `TAGNAMES`, and `J` (= JSON.stringify);
 *  - Ranger's macros: `IS_IN_ROLE(r)`, `IS_IN_GROUP(g)`, `HAS_TAG(t)`, `IS_IN_ANY_GROUP` …
 *
 * One deliberate extension: `tag.<attr>` reads the current tag's attribute. In Ranger `tag` is
 * a Java bean, so `tag.score` is undefined there and `tag.score > 0.6` is always false; the
 * reference treats `tag.attr` as an attribute read, and so does lakegate.
 */
import type { AttachedTag, ConditionContext } from './context.js';
import { parseTagAttributeDate } from './rangerDates.js';
import {
  HostObject,
  isArray,
  isRecord,
  record,
  ScriptFunction,
  type ScriptRecord,
  type ScriptValue,
  toBoolean,
  toJson,
  toScriptString,
} from './scriptValues.js';

const sorted = (values: Iterable<string>): string[] => [...values].sort();
const fn = (name: string, invoke: (args: readonly ScriptValue[]) => ScriptValue): ScriptFunction => new ScriptFunction(name, invoke);
const arg = (args: readonly ScriptValue[], i: number): string | undefined => {
  const v = args[i];
  return v === undefined || v === null ? undefined : toScriptString(v);
};

/** A Java Map<String,String> as Nashorn shows it: `m.get(k)`, `m.containsKey(k)`, `m.k`. */
export class JavaMapObject extends HostObject {
  constructor(private readonly entries: Readonly<Record<string, string>>) {
    super();
  }
  private value(key: string | undefined): ScriptValue {
    return key !== undefined && Object.prototype.hasOwnProperty.call(this.entries, key) ? this.entries[key] : null;
  }
  get(name: string): ScriptValue {
    switch (name) {
      case 'get':
        return fn(name, (a) => this.value(arg(a, 0)));
      case 'containsKey':
        return fn(name, (a) => this.value(arg(a, 0)) !== null);
      case 'size':
        return fn(name, () => Object.keys(this.entries).length);
      case 'isEmpty':
        return fn(name, () => Object.keys(this.entries).length === 0);
      case 'keySet':
        return fn(name, () => sorted(Object.keys(this.entries)));
      default:
        return Object.prototype.hasOwnProperty.call(this.entries, name) ? this.entries[name] : undefined;
    }
  }
  override toScriptString(): string {
    return `{${Object.entries(this.entries)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}}`;
  }
}

/** Ranger's RangerTagForEval as a script sees it. */
class TagObject extends HostObject {
  constructor(private readonly tag: AttachedTag) {
    super();
  }
  get(name: string): ScriptValue {
    switch (name) {
      case 'type':
        return this.tag.type;
      case 'attributes':
        return new JavaMapObject(this.tag.attributes);
      case 'matchType':
        return this.tag.matchType ?? null;
      case 'getType':
        return fn(name, () => this.tag.type);
      case 'getAttributes':
        return fn(name, () => new JavaMapObject(this.tag.attributes));
      case 'getMatchType':
        return fn(name, () => this.tag.matchType ?? null);
      default:
        return Object.prototype.hasOwnProperty.call(this.tag.attributes, name) ? this.tag.attributes[name] : undefined;
    }
  }
}

/** Everything derived from the context once per script run. */
class RequestView {
  readonly groups: string[];
  readonly roles: string[];
  readonly userAttrs: ScriptRecord;
  readonly groupAttrs: ReadonlyMap<string, Readonly<Record<string, string>>>;
  readonly tags: readonly AttachedTag[];
  readonly tagNames: string[];

  constructor(readonly ctx: ConditionContext) {
    this.groups = sorted(ctx.userGroups);
    this.roles = sorted(ctx.userRoles);
    this.userAttrs = record([...Object.entries(ctx.userAttributes?.(ctx.user) ?? {}), ['_name', ctx.user]]);
    const groupAttrs = new Map<string, Readonly<Record<string, string>>>();
    for (const g of this.groups) groupAttrs.set(g, { ...(ctx.groupAttributes?.(g) ?? {}), _name: g });
    this.groupAttrs = groupAttrs;
    this.tags = ctx.tags ?? [];
    this.tagNames = sorted(new Set(this.tags.map((t) => t.type)));
  }

  tagByType(type: string | undefined): AttachedTag | undefined {
    return this.tags.find((t) => t.type === type);
  }

  accessedAfter(date: Date | undefined): boolean {
    // No (readable) date counts as already expired.
    return date === undefined || this.ctx.accessTime.getTime() >= date.getTime();
  }

  accessedBefore(date: Date | undefined): boolean {
    return date !== undefined && this.ctx.accessTime.getTime() <= date.getTime();
  }

  currentTagAttr(name: string | undefined): string | undefined {
    const attrs = this.ctx.currentTag?.attributes;
    return name !== undefined && attrs && Object.prototype.hasOwnProperty.call(attrs, name) ? attrs[name] : undefined;
  }

  tagAttr(type: string | undefined, name: string | undefined): string | undefined {
    const attrs = this.tagByType(type)?.attributes;
    return name !== undefined && attrs && Object.prototype.hasOwnProperty.call(attrs, name) ? attrs[name] : undefined;
  }

  ugAttrValues(name: string | undefined): string[] {
    const out: string[] = [];
    for (const g of this.groups) {
      const v = name === undefined ? undefined : this.groupAttrs.get(g)?.[name];
      if (v !== undefined) out.push(v);
    }
    return out;
  }

  tagAttrValues(name: string | undefined): string[] {
    const out: string[] = [];
    for (const t of this.tagNames) {
      const v = this.tagAttr(t, name);
      if (v !== undefined) out.push(v);
    }
    return out;
  }

  userAttrNames(): string[] {
    return sorted(Object.keys(this.userAttrs).filter((k) => k !== '_name'));
  }

  ugAttrNames(): string[] {
    const names = new Set<string>();
    for (const attrs of this.groupAttrs.values()) for (const k of Object.keys(attrs)) if (k !== '_name') names.add(k);
    return sorted(names);
  }

  tagAttrNames(): string[] {
    const names = new Set<string>();
    for (const t of this.tags) for (const k of Object.keys(t.attributes)) names.add(k);
    return sorted(names);
  }
}

const csv = (values: readonly string[]): string => values.join(',');
const csvQ = (values: readonly string[]): string => values.map((v) => `'${v}'`).join(',');

/** Ranger's `ctx` object. `result` starts false; scripts set it. */
export class ScriptContextObject extends HostObject {
  result = false;

  constructor(private readonly view: RequestView) {
    super();
  }

  override set(name: string, value: ScriptValue): boolean {
    if (name !== 'result') return false;
    this.result = toBoolean(value);
    return true;
  }

  get(name: string): ScriptValue {
    const v = this.view;
    const c = v.ctx;
    const m = (f: (a: readonly ScriptValue[]) => ScriptValue): ScriptFunction => fn(name, f);
    switch (name) {
      case 'result':
        return this.result;
      case 'getResult':
        return m(() => this.result);
      case 'setResult':
        return m((a) => ((this.result = toBoolean(a[0])), undefined));
      case 'getUser':
        return m(() => c.user);
      case 'getUserGroups':
        return m(() => v.groups);
      case 'getUserRoles':
        return m(() => v.roles);
      case 'getAccessType':
        return m(() => c.accessType);
      case 'isAccessTypeAny':
        return m(() => c.accessType === '_any');
      case 'isAccessTypeDelegatedAdmin':
        return m(() => c.accessType === '_admin');
      case 'getAccessTime':
        return m(() => c.accessTime.getTime());
      case 'getClientIPAddress':
        return m(() => c.clientIPAddress ?? null);
      case 'getClientType':
        return m(() => c.clientType ?? null);
      case 'getAction':
        return m(() => c.action ?? null);
      case 'getRequestData':
        return m(() => c.requestData ?? null);
      case 'getRequestContextAttribute':
        return m((a) => {
          const key = arg(a, 0);
          const val = key === undefined || key.trim() === '' ? undefined : c.context[key];
          return val === undefined || val === null ? null : typeof val === 'string' ? val : toScriptString(toScriptValue(val));
        });
      case 'getCurrentTagType':
        return m(() => c.currentTag?.type ?? null);
      case 'getCurrentTag':
        return m(() => (c.currentTag ? new TagObject(c.currentTag) : null));
      case 'getAllTagTypes':
        return m(() => (v.tags.length === 0 ? null : v.tagNames));
      case 'getTagAttributes':
        return m((a) => {
          const t = v.tagByType(arg(a, 0));
          return t ? new JavaMapObject(t.attributes) : null;
        });
      case 'getAttributeNames':
        return m((a) => {
          const t = v.tagByType(arg(a, 0));
          return t ? sorted(Object.keys(t.attributes)) : null;
        });
      case 'getAttributeValue':
        return m((a) => (a.length >= 2 ? v.tagAttr(arg(a, 0), arg(a, 1)) : v.currentTagAttr(arg(a, 0))) ?? null);
      case 'isAccessedAfter':
        return m((a) =>
          v.accessedAfter(parseTagAttributeDate(a.length >= 2 ? v.tagAttr(arg(a, 0), arg(a, 1)) : v.currentTagAttr(arg(a, 0)))),
        );
      case 'isAccessedBefore':
        return m((a) =>
          v.accessedBefore(parseTagAttributeDate(a.length >= 2 ? v.tagAttr(arg(a, 0), arg(a, 1)) : v.currentTagAttr(arg(a, 0)))),
        );
      case 'hasTag':
        return m((a) => v.tagNames.includes(arg(a, 0) ?? ''));
      case 'hasAnyTag':
        return m(() => v.tags.length > 0);
      case 'hasUserAttr':
        return m((a) => {
          const k = arg(a, 0);
          return k !== undefined && Object.prototype.hasOwnProperty.call(v.userAttrs, k);
        });
      case 'hasUgAttr':
        return m((a) => [...v.groupAttrs.values()].some((attrs) => Object.prototype.hasOwnProperty.call(attrs, arg(a, 0) ?? '')));
      case 'hasTagAttr':
        return m((a) => v.tags.some((t) => Object.prototype.hasOwnProperty.call(t.attributes, arg(a, 0) ?? '')));
      case 'isInGroup':
        return m((a) => c.userGroups.has(arg(a, 0) ?? ''));
      case 'isInRole':
        return m((a) => c.userRoles.has(arg(a, 0) ?? ''));
      case 'isInAnyGroup':
        return m(() => c.userGroups.size > 0);
      case 'isInAnyRole':
        return m(() => c.userRoles.size > 0);
      case 'ugNamesCsv':
        return m(() => csv(v.groups));
      case 'ugNamesCsvQ':
        return m(() => csvQ(v.groups));
      case 'urNamesCsv':
        return m(() => csv(v.roles));
      case 'urNamesCsvQ':
        return m(() => csvQ(v.roles));
      case 'tagNamesCsv':
        return m(() => csv(v.tagNames));
      case 'tagNamesCsvQ':
        return m(() => csvQ(v.tagNames));
      case 'userAttrNamesCsv':
        return m(() => csv(v.userAttrNames()));
      case 'userAttrNamesCsvQ':
        return m(() => csvQ(v.userAttrNames()));
      case 'ugAttrNamesCsv':
        return m(() => csv(v.ugAttrNames()));
      case 'ugAttrNamesCsvQ':
        return m(() => csvQ(v.ugAttrNames()));
      case 'tagAttrNamesCsv':
        return m(() => csv(v.tagAttrNames()));
      case 'tagAttrNamesCsvQ':
        return m(() => csvQ(v.tagAttrNames()));
      case 'ugAttrCsv':
        return m((a) => csv(v.ugAttrValues(arg(a, 0))));
      case 'ugAttrCsvQ':
        return m((a) => csvQ(v.ugAttrValues(arg(a, 0))));
      case 'tagAttrCsv':
        return m((a) => csv(v.tagAttrValues(arg(a, 0))));
      case 'tagAttrCsvQ':
        return m((a) => csvQ(v.tagAttrValues(arg(a, 0))));
      default:
        return undefined;
    }
  }
}

/** Host data (context attributes) as script values: plain JSON-like data only. */
export function toScriptValue(v: unknown): ScriptValue {
  if (v === undefined || v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(toScriptValue);
  if (v instanceof Set) return [...v].map(toScriptValue);
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'object') return record(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, toScriptValue(x)] as const));
  return undefined;
}

function tagRecord(tag: AttachedTag): ScriptRecord {
  return record([...Object.entries(tag.attributes), ['_type', tag.type], ['_matchType', tag.matchType ?? null]]);
}

/** Ranger's macros, rewritten by Ranger to `ctx.…` calls before evaluation. */
const MACRO_FUNCTIONS: Readonly<Record<string, string>> = {
  IS_IN_ROLE: 'isInRole',
  IS_IN_GROUP: 'isInGroup',
  HAS_TAG: 'hasTag',
  HAS_USER_ATTR: 'hasUserAttr',
  HAS_UG_ATTR: 'hasUgAttr',
  HAS_TAG_ATTR: 'hasTagAttr',
  GET_TAG_ATTR_CSV: 'tagAttrCsv',
  GET_TAG_ATTR_Q_CSV: 'tagAttrCsvQ',
  GET_UG_ATTR_CSV: 'ugAttrCsv',
  GET_UG_ATTR_Q_CSV: 'ugAttrCsvQ',
};

const MACRO_VALUES: Readonly<Record<string, { method: string; negate: boolean }>> = {
  IS_IN_ANY_GROUP: { method: 'isInAnyGroup', negate: false },
  IS_IN_ANY_ROLE: { method: 'isInAnyRole', negate: false },
  IS_NOT_IN_ANY_GROUP: { method: 'isInAnyGroup', negate: true },
  IS_NOT_IN_ANY_ROLE: { method: 'isInAnyRole', negate: true },
  HAS_ANY_TAG: { method: 'hasAnyTag', negate: false },
  HAS_NO_TAG: { method: 'hasAnyTag', negate: true },
  TAG_NAMES_CSV: { method: 'tagNamesCsv', negate: false },
  TAG_NAMES_Q_CSV: { method: 'tagNamesCsvQ', negate: false },
  TAG_ATTR_NAMES_CSV: { method: 'tagAttrNamesCsv', negate: false },
  TAG_ATTR_NAMES_Q_CSV: { method: 'tagAttrNamesCsvQ', negate: false },
  UG_NAMES_CSV: { method: 'ugNamesCsv', negate: false },
  UG_NAMES_Q_CSV: { method: 'ugNamesCsvQ', negate: false },
  UG_ATTR_NAMES_CSV: { method: 'ugAttrNamesCsv', negate: false },
  UG_ATTR_NAMES_Q_CSV: { method: 'ugAttrNamesCsvQ', negate: false },
  UR_NAMES_CSV: { method: 'urNamesCsv', negate: false },
  UR_NAMES_Q_CSV: { method: 'urNamesCsvQ', negate: false },
  USER_ATTR_NAMES_CSV: { method: 'userAttrNamesCsv', negate: false },
  USER_ATTR_NAMES_Q_CSV: { method: 'userAttrNamesCsvQ', negate: false },
};

/** Every global name a Ranger script may use. */
export const SCRIPT_GLOBALS: ReadonlySet<string> = new Set([
  'ctx',
  'tag',
  'tagAttr',
  'REQ',
  'RES',
  'USER',
  'UGNAMES',
  'UG',
  'UGA',
  'URNAMES',
  'TAG',
  'TAGS',
  'TAGNAMES',
  'J',
  'Object',
  ...Object.keys(MACRO_FUNCTIONS),
  ...Object.keys(MACRO_VALUES),
]);

/** Object.keys only — the one Object static Ranger's own tests use. */
class ObjectStatics extends HostObject {
  get(name: string): ScriptValue {
    if (name !== 'keys') return undefined;
    return fn(name, (a) => {
      const o = a[0];
      if (isRecord(o)) return Object.keys(o);
      if (isArray(o)) return o.map((_, i) => String(i));
      return [];
    });
  }
}

export interface ScriptScope {
  ctx: ScriptContextObject;
  resolve: (name: string) => ScriptValue;
}

/** The globals of one script run over `context`. */
export function scriptScope(context: ConditionContext): ScriptScope {
  const view = new RequestView(context);
  const ctx = new ScriptContextObject(view);
  const call = (method: string, args: readonly ScriptValue[]): ScriptValue => {
    const f = ctx.get(method);
    return f instanceof ScriptFunction ? f.invoke(args) : undefined;
  };
  const user = (): ScriptRecord => view.userAttrs;
  const ug = (): ScriptRecord => record([...view.groupAttrs].map(([g, attrs]) => [g, record(Object.entries(attrs))] as const));
  const uga = (): ScriptRecord => {
    const single: Array<[string, ScriptValue]> = [];
    const multi = new Map<string, string[]>();
    for (const g of view.groups) {
      for (const [k, val] of Object.entries(view.groupAttrs.get(g) ?? {})) {
        if (!single.some(([s]) => s === k)) single.push([k, val]);
        multi.set(k, [...(multi.get(k) ?? []), val]);
      }
    }
    return record([
      ['sVal', record(single)],
      ['mVal', record([...multi])],
    ]);
  };
  const tagNow = (): ScriptRecord => (context.currentTag && view.tags.length > 0 ? tagRecord(context.currentTag) : record([]));
  const tags = (): ScriptRecord => record(view.tags.map((t) => [t.type, tagRecord(t)] as const));
  const res = (): ScriptRecord =>
    record([
      ...Object.entries(context.resource.elements).map(([k, val]) => [k, toScriptValue(val)] as const),
      ['_ownerUser', context.resource.ownerUser ?? null],
    ]);
  const req = (): ScriptRecord =>
    record([
      ['accessTime', context.accessTime.getTime()],
      ['accessType', context.accessType],
      ['action', context.action],
      ['clientIPAddress', context.clientIPAddress],
      ['clientType', context.clientType],
      ['clusterName', context.clusterName],
      ['clusterType', context.clusterType],
      ['forwardedAddresses', context.forwardedAddresses ? [...context.forwardedAddresses] : undefined],
      ['remoteIPAddress', context.remoteIPAddress],
      ['requestData', context.requestData],
      ['resource', res()],
      ['user', context.user],
      ['userGroups', view.groups],
      ['userRoles', view.roles],
      ['userAttributes', user()],
      ['userGroupAttributes', ug()],
      ['uga', uga()],
    ]);

  const resolve = (name: string): ScriptValue => {
    switch (name) {
      case 'ctx':
        return ctx;
      case 'tag':
        return context.currentTag ? new TagObject(context.currentTag) : null;
      case 'tagAttr':
        return new JavaMapObject(context.currentTag?.attributes ?? {});
      case 'REQ':
        return req();
      case 'RES':
        return res();
      case 'USER':
        return user();
      case 'UGNAMES':
        return view.groups;
      case 'UG':
        return ug();
      case 'UGA':
        return uga();
      case 'URNAMES':
        return view.roles;
      case 'TAG':
        return tagNow();
      case 'TAGS':
        return tags();
      case 'TAGNAMES':
        return view.tagNames;
      case 'J':
        return fn('J', (a) => toJson(a[0]) ?? null);
      case 'Object':
        return new ObjectStatics();
    }
    // names from a policy's script: only the macros listed here, never Object.prototype's members
    const macroFn = Object.hasOwn(MACRO_FUNCTIONS, name) ? MACRO_FUNCTIONS[name] : undefined;
    if (macroFn) return fn(name, (a) => call(macroFn, a));
    const macroValue = Object.hasOwn(MACRO_VALUES, name) ? MACRO_VALUES[name] : undefined;
    if (macroValue) {
      const v = call(macroValue.method, []);
      return macroValue.negate ? !toBoolean(v) : v;
    }
    return undefined;
  };
  return { ctx, resolve };
}
