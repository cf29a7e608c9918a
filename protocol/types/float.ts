/**
 * float4out / float8out with extra_float_digits >= 1 (PostgreSQL 12+ default):
 * the shortest text that reads back to the same value (Ryu in PostgreSQL,
 * ECMAScript's Number::toString here: both pick the shortest, closest digits),
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

export function float8Text(x: number): string {
  const a = x < 0 ? -x : x;
  // Where PostgreSQL uses fixed notation ECMAScript does too, with the same shortest digits.
  if (a >= 1e-4 && a < 1e15) return String(x);
  const s = special(x);
  if (s !== null) return s;
  const { digits, exp } = split(Math.abs(x).toExponential());
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
      return layout(digits, exp, x < 0, 6);
    }
  }
  const { digits, exp } = split(a.toExponential(8));
  return layout(digits, exp, x < 0, 6);
}
