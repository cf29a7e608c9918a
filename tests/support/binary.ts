/**
 * PostgreSQL binary wire formats for the types the tests round-trip, written from the
 * PostgreSQL documentation / sources (send/recv functions), independently of lakegate.
 */

const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 86400000;

export const enc = {
  int2(n: number): Buffer {
    const b = Buffer.alloc(2);
    b.writeInt16BE(n);
    return b;
  },
  int4(n: number): Buffer {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    return b;
  },
  int8(n: bigint): Buffer {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(n);
    return b;
  },
  float4(n: number): Buffer {
    const b = Buffer.alloc(4);
    b.writeFloatBE(n);
    return b;
  },
  float8(n: number): Buffer {
    const b = Buffer.alloc(8);
    b.writeDoubleBE(n);
    return b;
  },
  bool(v: boolean): Buffer {
    return Buffer.from([v ? 1 : 0]);
  },
  text(s: string): Buffer {
    return Buffer.from(s, 'utf8');
  },
  /** 'YYYY-MM-DD' → int32 days since 2000-01-01. */
  date(iso: string): Buffer {
    const ms = Date.parse(`${iso}T00:00:00Z`);
    return enc.int4(Math.round((ms - PG_EPOCH_MS) / DAY_MS));
  },
  /** microseconds since 2000-01-01 00:00:00 (UTC for timestamptz). */
  timestampMicros(us: bigint): Buffer {
    return enc.int8(us);
  },
  uuid(s: string): Buffer {
    return Buffer.from(s.replace(/-/g, ''), 'hex');
  },
  /** Decimal string → numeric binary (base-10000 digits). */
  numeric(s: string): Buffer {
    let neg = false;
    if (s.startsWith('-')) {
      neg = true;
      s = s.slice(1);
    }
    const [ip = '0', fp = ''] = s.split('.');
    const dscale = fp.length;
    const intPart = ip.replace(/^0+/, '');
    const intPadded = intPart.padStart(Math.ceil(intPart.length / 4) * 4, '0');
    const fracPadded = fp.padEnd(Math.ceil(fp.length / 4) * 4, '0');
    let digits: number[] = [];
    for (let i = 0; i < intPadded.length; i += 4) digits.push(Number(intPadded.slice(i, i + 4)));
    let weight = digits.length - 1;
    for (let i = 0; i < fracPadded.length; i += 4) digits.push(Number(fracPadded.slice(i, i + 4)));
    while (digits.length && digits[0] === 0) {
      digits.shift();
      weight--;
    }
    while (digits.length && digits[digits.length - 1] === 0) digits.pop();
    if (!digits.length) weight = 0;
    const b = Buffer.alloc(8 + 2 * digits.length);
    b.writeInt16BE(digits.length, 0);
    b.writeInt16BE(weight, 2);
    b.writeUInt16BE(neg ? 0x4000 : 0, 4);
    b.writeInt16BE(dscale, 6);
    digits.forEach((d, i) => b.writeInt16BE(d, 8 + 2 * i));
    return b;
  },
};

export const dec = {
  int2: (b: Buffer) => b.readInt16BE(0),
  int4: (b: Buffer) => b.readInt32BE(0),
  int8: (b: Buffer) => b.readBigInt64BE(0),
  float4: (b: Buffer) => b.readFloatBE(0),
  float8: (b: Buffer) => b.readDoubleBE(0),
  bool: (b: Buffer) => {
    if (b.length !== 1) throw new Error(`bool of ${b.length} bytes`);
    return b[0] === 1;
  },
  text: (b: Buffer) => b.toString('utf8'),
  date: (b: Buffer) => new Date(PG_EPOCH_MS + b.readInt32BE(0) * DAY_MS).toISOString().slice(0, 10),
  timestampMicros: (b: Buffer) => b.readBigInt64BE(0),
  uuid: (b: Buffer) => {
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  },
  numeric: (b: Buffer): string => {
    const ndigits = b.readInt16BE(0);
    const weight = b.readInt16BE(2);
    const sign = b.readUInt16BE(4);
    const dscale = b.readInt16BE(6);
    if (b.length !== 8 + 2 * ndigits) throw new Error(`not a binary numeric: ${b.length} bytes for ${ndigits} digits`);
    if (sign === 0xc000) return 'NaN';
    const digits: number[] = [];
    for (let i = 0; i < ndigits; i++) digits.push(b.readInt16BE(8 + 2 * i));
    let intStr = '';
    for (let w = weight; w >= 0; w--) {
      const idx = weight - w;
      intStr += String(idx < digits.length ? digits[idx] : 0).padStart(4, '0');
    }
    intStr = intStr.replace(/^0+/, '') || '0';
    let frac = '';
    for (let w = -1; frac.length < dscale; w--) {
      const idx = weight - w;
      frac += String(idx >= 0 && idx < digits.length ? digits[idx] : 0).padStart(4, '0');
    }
    frac = frac.slice(0, dscale);
    return (sign === 0x4000 ? '-' : '') + intStr + (dscale > 0 ? '.' + frac : '');
  },
};

/** Microseconds since 2000-01-01 for a UTC wall-clock time. */
export function pgMicros(y: number, mo: number, d: number, h: number, mi: number, s: number, us: number): bigint {
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  return BigInt(ms - PG_EPOCH_MS) * 1000n + BigInt(us);
}
