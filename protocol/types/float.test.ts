import { float4Text, float8Text } from './float.js';

/** Deterministic bit patterns over the whole double / float range. */
function* doubles(count: number): Generator<number> {
  const view = new DataView(new ArrayBuffer(8));
  let s = 0x2545f491n;
  for (let k = 0; k < count; k++) {
    s = (s * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    view.setBigUint64(0, s);
    yield view.getFloat64(0);
  }
}

describe('shortest float text', () => {
  it('float8: reads back to the same double, in PostgreSQL layout', () => {
    for (const x of doubles(5000)) {
      if (!Number.isFinite(x)) continue;
      const t = float8Text(x);
      if (Number(t) !== x || !/^-?(?:\d+(?:\.\d+)?|\d(?:\.\d+)?e[+-]\d{2,3})$/.test(t)) expect({ x, t }).toBeUndefined();
    }
  });

  it('float4: reads back to the same float32 with at most 9 digits', () => {
    for (const d of doubles(5000)) {
      const x = Math.fround(d);
      if (!Number.isFinite(x)) continue;
      const t = float4Text(x);
      const digits = t.replace(/^-|e.*$|\./g, '').replace(/^0+/, '').length;
      if (Math.fround(Number(t)) !== x || digits > 9) expect({ x, t }).toBeUndefined();
    }
  });

  it('keeps the sign of zero and spells the specials as PostgreSQL does', () => {
    expect([float8Text(-0), float8Text(0), float8Text(NaN), float8Text(Infinity), float8Text(-Infinity)]).toEqual(['-0', '0', 'NaN', 'Infinity', '-Infinity']);
  });
});
