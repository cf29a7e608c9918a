/**
 * DATE, TIME, TIMETZ, TIMESTAMP[_S/_MS/_NS], TIMESTAMPTZ and INTERVAL.
 * DuckDB counts from 1970-01-01, PostgreSQL's binary format from 2000-01-01;
 * both use the extreme values of the integer type for ±infinity.
 */
import type { MessageWriter } from '../../protocol/writer.js';
import { int64ToNumber } from '../../protocol/types/digits.js';
import {
  MAX_TIMESTAMPTZ_TEXT,
  PG_EPOCH_DAYS,
  PG_EPOCH_MICROS,
  PG_EPOCH_MICROS_BIG,
  writeDate,
  writeInfinity,
  writeOffset,
  writeTime,
  writeTimestamp,
  writeTimestampBig,
} from '../../protocol/types/datetime.js';
import { intervalText } from '../../protocol/types/interval.js';
import type { ZoneOffsets } from '../../protocol/types/timezone.js';
import { Codec, writeAscii } from './codec.js';
import { vectorBytes, type RawVector } from './rawVector.js';

const DATE_INFINITY = 2147483647;
const DATE_NEG_INFINITY = -2147483647;

export class DateCodec extends Codec {
  private items = new Int32Array(0);
  protected loadData(vec: RawVector, count: number): void {
    const d = vectorBytes(vec, count * 4);
    this.items = new Int32Array(d.buffer, d.byteOffset, count);
  }
  text(out: MessageWriter, i: number): void {
    const v = this.items[i]!;
    out.ensure(24);
    if (v === DATE_INFINITY || v === DATE_NEG_INFINITY) out.pos = writeInfinity(out.buf, out.pos, v < 0);
    else out.pos = writeDate(out.buf, out.pos, v);
  }
  binary(out: MessageWriter, i: number): void {
    const v = this.items[i]!;
    out.ensure(4);
    const pg = v === DATE_INFINITY ? 2147483647 : v === DATE_NEG_INFINITY ? -2147483648 : v - PG_EPOCH_DAYS;
    out.pos = out.buf.writeInt32BE(pg, out.pos);
  }
}

/** TIME (µs) and TIME_NS (ns, truncated to µs as a cast to time would). */
export class TimeCodec extends Codec {
  private halves = new Int32Array(0);
  constructor(elementOid: number, private readonly nanos: boolean) {
    super(elementOid);
  }
  protected loadData(vec: RawVector, count: number): void {
    const d = vectorBytes(vec, count * 8);
    this.halves = new Int32Array(d.buffer, d.byteOffset, count * 2);
  }
  private micros(i: number): number {
    const v = int64ToNumber(this.halves[2 * i]!, this.halves[2 * i + 1]!);
    return this.nanos ? Math.floor(v / 1000) : v;
  }
  text(out: MessageWriter, i: number): void {
    out.ensure(16);
    out.pos = writeTime(out.buf, out.pos, this.micros(i));
  }
  binary(out: MessageWriter, i: number): void {
    out.ensure(8);
    out.pos = out.buf.writeBigInt64BE(BigInt(this.micros(i)), out.pos);
  }
}

/** TIMETZ: 40 bits of µs, then 24 bits of offset encoded as 57599 - seconds east. */
export class TimeTzCodec extends Codec {
  private halves = new Uint32Array(0);
  protected loadData(vec: RawVector, count: number): void {
    const d = vectorBytes(vec, count * 8);
    this.halves = new Uint32Array(d.buffer, d.byteOffset, count * 2);
  }
  private micros(i: number): number {
    return this.halves[2 * i + 1]! * 256 + (this.halves[2 * i]! >>> 24);
  }
  private offset(i: number): number {
    return 57599 - (this.halves[2 * i]! & 0xffffff);
  }
  text(out: MessageWriter, i: number): void {
    out.ensure(32);
    out.pos = writeTime(out.buf, out.pos, this.micros(i));
    out.pos = writeOffset(out.buf, out.pos, this.offset(i));
  }
  binary(out: MessageWriter, i: number): void {
    out.ensure(12);
    out.pos = out.buf.writeBigInt64BE(BigInt(this.micros(i)), out.pos);
    // timetz_send: the zone in seconds WEST of UTC.
    out.pos = out.buf.writeInt32BE(-this.offset(i), out.pos);
  }
}

export type TimestampUnit = 's' | 'ms' | 'us' | 'ns';
const UNIT_TO_MICROS: Record<TimestampUnit, number> = { s: 1_000_000, ms: 1000, us: 1, ns: 0.001 };

/**
 * TIMESTAMP family and TIMESTAMPTZ (zone set): µs since 1970 as a Number when
 * exact (±285 years around 1970, the common case), else bigint.
 */
export class TimestampCodec extends Codec {
  private halves = new Int32Array(0);
  private readonly mult: number;
  constructor(elementOid: number, private readonly unit: TimestampUnit, private readonly zone: ZoneOffsets | null) {
    super(elementOid);
    this.mult = UNIT_TO_MICROS[unit];
  }
  protected loadData(vec: RawVector, count: number): void {
    const d = vectorBytes(vec, count * 8);
    this.halves = new Int32Array(d.buffer, d.byteOffset, count * 2);
  }
  /** 1 = +infinity, -1 = -infinity, 0 = finite. */
  private infinity(lo: number, hi: number): number {
    if (hi === 0x7fffffff && lo === -1) return 1;
    if (hi === -0x80000000 && lo === 1) return -1;
    return 0;
  }
  /** Exact µs as a Number, or NaN when it needs a bigint. */
  private fastMicros(lo: number, hi: number): number {
    if (this.unit === 'ns') return NaN;
    const v = int64ToNumber(lo, hi) * this.mult;
    return v >= -9007199254740991 && v <= 9007199254740991 ? v : NaN;
  }
  private bigMicros(lo: number, hi: number): bigint {
    const v = (BigInt(hi) << 32n) | BigInt(lo >>> 0);
    switch (this.unit) {
      case 's': return v * 1_000_000n;
      case 'ms': return v * 1000n;
      case 'us': return v;
      default: {
        // Floor division for negatives, as a cast to timestamp would truncate toward -infinity.
        const q = v / 1000n;
        return v < 0n && q * 1000n !== v ? q - 1n : q;
      }
    }
  }
  text(out: MessageWriter, i: number): void {
    this.write(out, i, false);
  }
  /** PostgreSQL's to_json form: XSD ('T', offset with minutes), quoted. */
  override json(out: MessageWriter, i: number): void {
    out.ensure(MAX_TIMESTAMPTZ_TEXT + 2);
    out.buf[out.pos++] = 34;
    this.write(out, i, true);
    out.buf[out.pos++] = 34;
  }
  private write(out: MessageWriter, i: number, xsd: boolean): void {
    const lo = this.halves[2 * i]!;
    const hi = this.halves[2 * i + 1]!;
    out.ensure(MAX_TIMESTAMPTZ_TEXT);
    const inf = this.infinity(lo, hi);
    if (inf !== 0) {
      out.pos = writeInfinity(out.buf, out.pos, inf < 0);
      return;
    }
    const us = this.fastMicros(lo, hi);
    const zone = this.zone;
    if (us === us) {
      if (zone === null) out.pos = writeTimestamp(out.buf, out.pos, us, undefined, xsd);
      else {
        const off = zone.offsetAt(Math.floor(us / 1_000_000));
        out.pos = writeTimestamp(out.buf, out.pos, us + off * 1_000_000, off, xsd);
      }
      return;
    }
    const big = this.bigMicros(lo, hi);
    if (zone === null) out.pos = writeTimestampBig(out.buf, out.pos, big, undefined, xsd);
    else {
      const secs = big / 1_000_000n - (big < 0n && big % 1_000_000n !== 0n ? 1n : 0n);
      const off = zone.offsetAt(Number(secs));
      out.pos = writeTimestampBig(out.buf, out.pos, big + BigInt(off) * 1_000_000n, off, xsd);
    }
  }
  binary(out: MessageWriter, i: number): void {
    const lo = this.halves[2 * i]!;
    const hi = this.halves[2 * i + 1]!;
    out.ensure(8);
    const inf = this.infinity(lo, hi);
    if (inf !== 0) {
      out.pos = out.buf.writeBigInt64BE(inf > 0 ? 0x7fffffffffffffffn : -0x8000000000000000n, out.pos);
      return;
    }
    const us = this.fastMicros(lo, hi);
    if (us === us) {
      const pg = us - PG_EPOCH_MICROS;
      // Two int32 halves: avoids a BigInt per value on the common path.
      const high = Math.floor(pg / 4294967296);
      out.buf.writeInt32BE(high, out.pos);
      out.buf.writeUInt32BE(pg - high * 4294967296, out.pos + 4);
      out.pos += 8;
    } else {
      out.pos = out.buf.writeBigInt64BE(this.bigMicros(lo, hi) - PG_EPOCH_MICROS_BIG, out.pos);
    }
  }
}

/** INTERVAL: int32 months, int32 days, int64 µs (16 bytes). */
export class IntervalCodec extends Codec {
  private ints = new Int32Array(0);
  private bigs = new BigInt64Array(0);
  protected loadData(vec: RawVector, count: number): void {
    const d = vectorBytes(vec, count * 16);
    this.ints = new Int32Array(d.buffer, d.byteOffset, count * 4);
    this.bigs = new BigInt64Array(d.buffer, d.byteOffset, count * 2);
  }
  text(out: MessageWriter, i: number): void {
    writeAscii(out, intervalText(this.ints[4 * i]!, this.ints[4 * i + 1]!, this.bigs[2 * i + 1]!));
  }
  binary(out: MessageWriter, i: number): void {
    out.ensure(16);
    out.pos = out.buf.writeBigInt64BE(this.bigs[2 * i + 1]!, out.pos);
    out.pos = out.buf.writeInt32BE(this.ints[4 * i + 1]!, out.pos);
    out.pos = out.buf.writeInt32BE(this.ints[4 * i]!, out.pos);
  }
}
