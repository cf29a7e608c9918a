/**
 * Booleans, integers, decimals and floats. The wire width comes from the
 * PostgreSQL type (sql/pgTypes.ts), not from DuckDB's: TINYINT goes out as a
 * 2-byte int2, UINTEGER as an 8-byte int8, UBIGINT/HUGEINT as numeric.
 */
import { PgError, SqlState } from '../../protocol/errors.js';
import type { MessageWriter } from '../../protocol/writer.js';
import { int64ToNumber, writeBigInt, writeInt } from '../../protocol/types/digits.js';
import { float4Text, float8Text } from '../../protocol/types/float.js';
import { numericBinary, scaledText, writeNumericBinary, writeScaled } from '../../protocol/types/numeric.js';
import { Codec, writeAscii } from './codec.js';
import { vectorBytes, type RawVector } from './rawVector.js';

export class BoolCodec extends Codec {
  private data = new Uint8Array(0);
  protected override readonly textIsJson = false;
  protected loadData(vec: RawVector, count: number): void {
    this.data = vectorBytes(vec, count);
  }
  text(out: MessageWriter, i: number): void {
    out.ensure(1);
    out.buf[out.pos++] = this.data[i] ? 116 : 102; // 't' / 'f'
  }
  binary(out: MessageWriter, i: number): void {
    out.ensure(1);
    out.buf[out.pos++] = this.data[i] ? 1 : 0;
  }
  override json(out: MessageWriter, i: number): void {
    writeAscii(out, this.data[i] ? 'true' : 'false');
  }
}

type IntArray = Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array;
type IntArrayCtor = { new (b: ArrayBufferLike, off: number, len: number): IntArray; BYTES_PER_ELEMENT: number };

/** Integers that fit a JS number exactly: TINYINT..INTEGER and their unsigned forms. */
export class SmallIntCodec extends Codec {
  private items: IntArray = new Int32Array(0);
  protected override readonly textIsJson = true;
  constructor(elementOid: number, private readonly ctor: IntArrayCtor, private readonly wireBytes: 2 | 4 | 8) {
    super(elementOid);
  }
  protected loadData(vec: RawVector, count: number): void {
    const d = vectorBytes(vec, count * this.ctor.BYTES_PER_ELEMENT);
    this.items = new this.ctor(d.buffer, d.byteOffset, count);
  }
  text(out: MessageWriter, i: number): void {
    out.ensure(11);
    out.pos = writeInt(out.buf, out.pos, this.items[i]!);
  }
  binary(out: MessageWriter, i: number): void {
    const v = this.items[i]!;
    out.ensure(8);
    if (this.wireBytes === 2) out.buf.writeInt16BE(v, out.pos);
    else if (this.wireBytes === 4) out.buf.writeInt32BE(v, out.pos);
    else {
      out.buf.writeInt32BE(v < 0 ? -1 : 0, out.pos);
      out.buf.writeUInt32BE(v >>> 0, out.pos + 4);
    }
    out.pos += this.wireBytes;
  }
}

/** BIGINT read as two int32 halves: a Number when exact, BigInt only beyond 2^53. */
export class BigIntCodec extends Codec {
  private halves = new Int32Array(0);
  private bytes = new Uint8Array(0);
  /** Item i as an oid (unsigned 32 bits; -2^31..-1 wrap as oidin wraps them), or undefined beyond. */
  protected oid(i: number): number | undefined {
    const hi = this.halves[2 * i + 1]!;
    const lo = this.halves[2 * i]!;
    return hi === 0 || (hi === -1 && lo < 0) ? lo >>> 0 : undefined;
  }
  protected override readonly textIsJson = true;
  protected loadData(vec: RawVector, count: number): void {
    this.bytes = vectorBytes(vec, count * 8);
    this.halves = new Int32Array(this.bytes.buffer, this.bytes.byteOffset, count * 2);
  }
  text(out: MessageWriter, i: number): void {
    out.ensure(20);
    const n = int64ToNumber(this.halves[2 * i]!, this.halves[2 * i + 1]!);
    if (n === n) out.pos = writeInt(out.buf, out.pos, n);
    else out.pos = writeBigInt(out.buf, out.pos, (BigInt(this.halves[2 * i + 1]!) << 32n) | BigInt(this.halves[2 * i]! >>> 0));
  }
  binary(out: MessageWriter, i: number): void {
    out.ensure(8);
    const b = this.bytes;
    const buf = out.buf;
    const p = out.pos;
    const s = i * 8;
    // Little-endian in memory, big-endian on the wire.
    for (let k = 0; k < 8; k++) buf[p + k] = b[s + 7 - k]!;
    out.pos = p + 8;
  }
}

/** oid and xid held in a BIGINT: the same text, an unsigned 4-byte integer in binary (oidsend). */
export class OidCodec extends BigIntCodec {
  private checked(i: number): number {
    const v = this.oid(i);
    // x::oid is carried as int8: a value no oid holds is PostgreSQL's input error, never a truncated OID
    if (v === undefined) throw new PgError(SqlState.numericValueOutOfRange, 'value is out of range for type oid');
    return v;
  }
  override text(out: MessageWriter, i: number): void {
    out.ensure(11);
    out.pos = writeInt(out.buf, out.pos, this.checked(i));
  }
  override binary(out: MessageWriter, i: number): void {
    out.ensure(4);
    out.pos = out.buf.writeUInt32BE(this.checked(i), out.pos);
  }
}

/** Reads item i of a 64/128-bit vector as a bigint. */
type BigReader = (i: number) => bigint;

/** UBIGINT, HUGEINT, UHUGEINT and DECIMAL(19..38, s): exact bigint arithmetic, numeric on the wire. */
export class WideNumericCodec extends Codec {
  private read: BigReader = () => 0n;
  protected override readonly textIsJson = true;
  constructor(elementOid: number, private readonly kind: 'u64' | 'i128' | 'u128', private readonly scale: number) {
    super(elementOid);
  }
  protected loadData(vec: RawVector, count: number): void {
    const width = this.kind === 'u64' ? 8 : 16;
    const d = vectorBytes(vec, count * width);
    const u = new BigUint64Array(d.buffer, d.byteOffset, (count * width) / 8);
    if (this.kind === 'u64') this.read = (i) => u[i]!;
    else if (this.kind === 'u128') this.read = (i) => (u[2 * i + 1]! << 64n) | u[2 * i]!;
    else this.read = (i) => (BigInt.asIntN(64, u[2 * i + 1]!) << 64n) | u[2 * i]!;
  }
  text(out: MessageWriter, i: number): void {
    if (this.scale === 0) {
      out.ensure(41);
      out.pos = writeBigInt(out.buf, out.pos, this.read(i));
    } else writeAscii(out, scaledText(this.read(i), this.scale));
  }
  binary(out: MessageWriter, i: number): void {
    out.bytes(numericBinary(this.read(i), this.scale));
  }
}

/** DECIMAL(1..18, s): int16/int32/int64 storage, printed with exactly s fraction digits. */
export class DecimalCodec extends Codec {
  private items: Int16Array | Int32Array = new Int32Array(0);
  protected override readonly textIsJson = true;
  constructor(elementOid: number, private readonly storage: 2 | 4 | 8, private readonly scale: number) {
    super(elementOid);
  }
  protected loadData(vec: RawVector, count: number): void {
    const d = vectorBytes(vec, count * this.storage);
    this.items = this.storage === 2 ? new Int16Array(d.buffer, d.byteOffset, count) : new Int32Array(d.buffer, d.byteOffset, (count * this.storage) / 4);
  }
  private value(i: number): number {
    if (this.storage !== 8) return this.items[i]!;
    return int64ToNumber(this.items[2 * i]!, this.items[2 * i + 1]!);
  }
  private big(i: number): bigint {
    if (this.storage !== 8) return BigInt(this.items[i]!);
    return (BigInt(this.items[2 * i + 1]!) << 32n) | BigInt(this.items[2 * i]! >>> 0);
  }
  text(out: MessageWriter, i: number): void {
    const v = this.value(i);
    if (v !== v) {
      writeAscii(out, scaledText(this.big(i), this.scale));
      return;
    }
    out.ensure(22);
    out.pos = writeScaled(out.buf, out.pos, v, this.scale);
  }
  binary(out: MessageWriter, i: number): void {
    const v = this.value(i);
    if (v === v) {
      out.ensure(24);
      const end = writeNumericBinary(out.buf, out.pos, v, this.scale);
      if (end >= 0) {
        out.pos = end;
        return;
      }
    }
    out.bytes(numericBinary(this.big(i), this.scale));
  }
}

export class FloatCodec extends Codec {
  private items: Float32Array | Float64Array = new Float64Array(0);
  constructor(elementOid: number, private readonly single: boolean) {
    super(elementOid);
  }
  protected loadData(vec: RawVector, count: number): void {
    const d = vectorBytes(vec, count * (this.single ? 4 : 8));
    this.items = this.single ? new Float32Array(d.buffer, d.byteOffset, count) : new Float64Array(d.buffer, d.byteOffset, count);
  }
  text(out: MessageWriter, i: number): void {
    const v = this.items[i]!;
    writeAscii(out, this.single ? float4Text(v) : float8Text(v));
  }
  binary(out: MessageWriter, i: number): void {
    out.ensure(8);
    if (this.single) out.pos = out.buf.writeFloatBE(this.items[i]!, out.pos);
    else out.pos = out.buf.writeDoubleBE(this.items[i]!, out.pos);
  }
  override json(out: MessageWriter, i: number): void {
    const v = this.items[i]!;
    // JSON has no NaN/Infinity: those become strings with PostgreSQL's spelling.
    if (!Number.isFinite(v)) super.json(out, i);
    else this.text(out, i);
  }
}
