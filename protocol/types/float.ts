/**
 * float4out / float8out with extra_float_digits >= 1 (PostgreSQL 12+ default):
 * the shortest text that reads back to the same value (Ryu in PostgreSQL,
 * ECMAScript's Number::toString here: both pick the shortest, closest digits,
 * except that PostgreSQL's Ryu never accepts a candidate lying exactly on a
 * rounding boundary, where ECMAScript does when the significand is even:
 * PostgreSQL prints the double nearest 1e23 as 9.999999999999999e+22),
 * laid out as PostgreSQL's d2s.c / f2s.c do: fixed notation when the decimal
 * exponent is in [-4, 15) for float8 and [-4, 6) for float4, else 'd.ddde+XX'
 * with at least two exponent digits; NaN, Infinity, -Infinity and -0.
 */

function layout(digits: string, exp: number, negative: boolean, fixedLimit: number): string {
  let body: string;
  if (exp >= -4 && exp < fixedLimit) {
    if (exp < 0) body = `0.${'0'.repeat(-exp - 1)}${digits}`;
    else if (digits.length <= exp + 1) body = digits + '0'.repeat(exp + 1 - digits.length);
    else body = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  } else {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    body = `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  return negative ? `-${body}` : body;
}

/** Shortest digits and decimal exponent of a finite nonzero |x| from a toExponential()/toPrecision() string. */
function split(expForm: string): { digits: string; exp: number } {
  const e = expForm.indexOf('e');
  const digits = expForm.slice(0, e).replace('.', '').replace(/0+$/, '') || '0';
  return { digits, exp: Number(expForm.slice(e + 1)) };
}

function special(x: number): string | null {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  return null;
}

const view = new DataView(new ArrayBuffer(8));

/** The adjacent representable value of a positive finite a (float32 when single). */
function neighbor(a: number, step: 1 | -1, single: boolean): number {
  if (single) {
    view.setFloat32(0, a);
    view.setUint32(0, view.getUint32(0) + step);
    return view.getFloat32(0);
  }
  view.setFloat64(0, a);
  view.setBigUint64(0, view.getBigUint64(0) + BigInt(step));
  return view.getFloat64(0);
}

/**
 * Whether digits x 10^(exp - len + 1) is exactly halfway between a and a
 * neighbour. Only called for a >= 2^53 (2^24 for float4), where a and its
 * neighbours are integers; below that a boundary needs more digits than the
 * shortest form has, so it can never be chosen.
 */
function onBoundary(a: number, digits: string, exp: number, single: boolean): boolean {
  const A = BigInt(a);
  const P = BigInt(neighbor(a, -1, single));
  const next = neighbor(a, 1, single);
  const N = Number.isFinite(next) ? BigInt(next) : 2n * A - P;
  const k = exp - digits.length + 1;
  const twice = 2n * BigInt(digits);
  for (const bound of [A + P, A + N]) {
    // 2 * candidate == 2 * boundary, both sides scaled to integers.
    if (k >= 0 ? twice * 10n ** BigInt(k) === bound : twice === bound * 10n ** BigInt(-k)) return true;
  }
  return false;
}

export function float8Text(x: number): string {
  const a = x < 0 ? -x : x;
  // Where PostgreSQL uses fixed notation ECMAScript does too, with the same shortest digits.
  if (a >= 1e-4 && a < 1e15) return String(x);
  const s = special(x);
  if (s !== null) return s;
  let { digits, exp } = split(a.toExponential());
  if (a >= 9007199254740992 && onBoundary(a, digits, exp, false)) {
    for (let p = digits.length + 1; p <= 17; p++) {
      const c = split(a.toExponential(p - 1));
      if (Number(a.toExponential(p - 1)) === a && !onBoundary(a, c.digits, c.exp, false)) {
        ({ digits, exp } = c);
        break;
      }
    }
  }
  return layout(digits, exp, x < 0, 15);
}

/** x is a float32 value widened to double; the digits are the shortest that round-trip through float32. */
export function float4Text(x: number): string {
  const s = special(x);
  if (s !== null) return s;
  const a = Math.abs(x);
  for (let p = 1; p <= 9; p++) {
    const e = a.toExponential(p - 1);
    if (Math.fround(Number(e)) === a) {
      const { digits, exp } = split(e);
      if (a >= 16777216 && onBoundary(a, digits, exp, true)) continue;
      return layout(digits, exp, x < 0, 6);
    }
  }
  const { digits, exp } = split(a.toExponential(8));
  return layout(digits, exp, x < 0, 6);
}
