/**
 * jsonb's text form (jsonb_out) from any JSON text: PostgreSQL stores jsonb
 * parsed, so it prints an object's keys in its storage order (shorter keys
 * first, then bytewise), each key once (the last one written wins), with
 * `", "` and `": "` between items, strings re-escaped (escape_json), and
 * numbers as numeric prints them (an exponent written out: 1e2 → 100).
 * One pass to parse and one to print; objects sort their keys. The planner
 * puts a jsonb literal in this form (sql/dialect/json.ts); server/rows prints
 * every jsonb column through it.
 */

const HEX = '0123456789abcdef';

/** A JSON string literal for s (RFC 8259 escapes; non-ASCII kept as UTF-8, as DuckDB's to_json does). */
export function jsonString(s: string): string {
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 34 && c !== 92) continue;
    out += s.slice(from, i);
    from = i + 1;
    switch (c) {
      case 34: out += '\\"'; break;
      case 92: out += '\\\\'; break;
      case 8: out += '\\b'; break;
      case 9: out += '\\t'; break;
      case 10: out += '\\n'; break;
      case 12: out += '\\f'; break;
      case 13: out += '\\r'; break;
      default: out += `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
    }
  }
  return out + s.slice(from) + '"';
}


type Value = string | Value[] | ObjectValue;
/** an object's members, keys as written (before sorting), values parsed */
interface ObjectValue {
  keys: string[];
  values: Value[];
}
/** A scalar is kept as the text it prints as (a string already quoted). */

/** Nesting beyond this is printed as written, not reordered (the parser recurses). */
const MAX_DEPTH = 1000;

class TooDeep extends Error {}

class Parser {
  pos = 0;
  constructor(private readonly s: string) {}

  private ws(): void {
    const s = this.s;
    let p = this.pos;
    for (;;) {
      const c = s.charCodeAt(p);
      if (c === 32 || c === 9 || c === 10 || c === 13) p++;
      else break;
    }
    this.pos = p;
  }

  private fail(): never {
    throw new SyntaxError('invalid json');
  }

  value(depth: number): Value {
    if (depth > MAX_DEPTH) throw new TooDeep();
    this.ws();
    const s = this.s;
    const c = s[this.pos];
    if (c === '{') {
      this.pos++;
      const obj: ObjectValue = { keys: [], values: [] };
      this.ws();
      if (s[this.pos] === '}') {
        this.pos++;
        return obj;
      }
      for (;;) {
        this.ws();
        if (s[this.pos] !== '"') this.fail();
        obj.keys.push(JSON.parse(this.stringToken()) as string);
        this.ws();
        if (s[this.pos] !== ':') this.fail();
        this.pos++;
        obj.values.push(this.value(depth + 1));
        this.ws();
        const d = s[this.pos++];
        if (d === '}') return obj;
        if (d !== ',') this.fail();
      }
    }
    if (c === '[') {
      this.pos++;
      const arr: Value[] = [];
      this.ws();
      if (s[this.pos] === ']') {
        this.pos++;
        return arr;
      }
      for (;;) {
        arr.push(this.value(depth + 1));
        this.ws();
        const d = s[this.pos++];
        if (d === ']') return arr;
        if (d !== ',') this.fail();
      }
    }
    if (c === '"') return jsonString(JSON.parse(this.stringToken()) as string);
    for (const word of ['true', 'false', 'null']) {
      if (s.startsWith(word, this.pos)) {
        this.pos += word.length;
        return word;
      }
    }
    const m = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
    m.lastIndex = this.pos;
    const num = m.exec(s);
    if (!num) this.fail();
    this.pos += num[0].length;
    return numericText(num[0]);
  }

  /** The raw text of the string token at pos, quotes included. */
  private stringToken(): string {
    const s = this.s;
    const start = this.pos;
    let p = start + 1;
    for (;;) {
      const c = s.charCodeAt(p);
      if (Number.isNaN(c)) this.fail();
      if (c === 92) p += 2;
      else if (c === 34) break;
      else p++;
    }
    this.pos = p + 1;
    return s.slice(start, p + 1);
  }

  end(): void {
    this.ws();
    if (this.pos !== this.s.length) this.fail();
  }
}

/** A JSON number as PostgreSQL's numeric prints it: no exponent, no negative zero. */
export function numericText(n: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(n);
  if (!m) return n;
  const [, sign, int, frac = '', exp] = m;
  let digits = int! + frac;
  let scale = frac.length - (exp === undefined ? 0 : Number(exp));
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  let whole = digits.slice(0, digits.length - scale).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(digits.length - scale);
  const zero = /^0*$/.test(whole) && /^0*$/.test(fraction);
  if (whole === '') whole = '0';
  return (zero ? '' : sign!) + whole + (scale > 0 ? '.' + fraction : '');
}

const byKeyOrder = (a: [Buffer, number], b: [Buffer, number]): number => a[0].length - b[0].length || Buffer.compare(a[0], b[0]);

function print(v: Value, out: string[]): void {
  if (typeof v === 'string') {
    out.push(v);
    return;
  }
  if (Array.isArray(v)) {
    out.push('[');
    v.forEach((item, i) => {
      if (i > 0) out.push(', ');
      print(item, out);
    });
    out.push(']');
    return;
  }
  // the last of equal keys wins; then jsonb's order
  const last = new Map<string, number>();
  v.keys.forEach((k, i) => last.set(k, i));
  const order = [...last.entries()].map(([k, i]): [Buffer, number] => [Buffer.from(k, 'utf8'), i]).sort(byKeyOrder);
  out.push('{');
  order.forEach(([, i], n) => {
    if (n > 0) out.push(', ');
    out.push(jsonString(v.keys[i]!), ': ');
    print(v.values[i]!, out);
  });
  out.push('}');
}

/** jsonb's text of a JSON text; text that is not JSON (or nested too deep to reorder) as it is. */
export function jsonbText(json: string): string {
  try {
    const p = new Parser(json);
    const v = p.value(0);
    p.end();
    const out: string[] = [];
    print(v, out);
    return out.join('');
  } catch (e) {
    if (e instanceof SyntaxError || e instanceof TooDeep) return json;
    throw e;
  }
}
