/** VARCHAR / JSON / BLOB / ENUM / UUID / BIT: byte-string and dictionary types. */
import type { MessageWriter } from '../../protocol/writer.js';
import { writeByteaHex } from '../../protocol/types/bytea.js';
import { writeUuid } from '../../protocol/types/uuid.js';
import { jsonbText } from '../../sql/jsonbText.js';
import { PgError, SqlState } from '../../protocol/errors.js';
import { Codec } from './codec.js';
import { stringBytes, vectorBytes, type RawVector } from './rawVector.js';

/** duckdb_string_t vectors: 16 bytes per item, inline up to 12 bytes. */
abstract class StringTCodec extends Codec {
  protected data = new Uint8Array(0);
  protected lengths = new Uint32Array(0);
  protected loadData(vec: RawVector, count: number): void {
    this.data = vectorBytes(vec, count * 16);
    this.lengths = new Uint32Array(this.data.buffer, this.data.byteOffset, count * 4);
  }
  protected item(i: number): Uint8Array {
    return stringBytes(this.data, this.lengths, i);
  }
  /** Copy item i's bytes into the writer as they are. */
  protected raw(out: MessageWriter, i: number): void {
    const len = this.lengths[i * 4]!;
    out.ensure(len);
    if (len <= 12) {
      // Inline: copy straight from the vector, no view allocated.
      const from = i * 16 + 4;
      const d = this.data;
      const buf = out.buf;
      let p = out.pos;
      for (let k = 0; k < len; k++) buf[p++] = d[from + k]!;
      out.pos = p;
    } else {
      out.bytes(this.item(i));
    }
  }
}

/** VARCHAR (text) and JSON: UTF-8 bytes as stored, in both formats. */
export class VarcharCodec extends StringTCodec {
  protected override readonly textIsJson: boolean;
  constructor(elementOid: number, isJson: boolean) {
    super(elementOid);
    this.textIsJson = isJson;
  }
  text(out: MessageWriter, i: number): void {
    this.raw(out, i);
  }
  binary(out: MessageWriter, i: number): void {
    this.raw(out, i);
  }
}

/**
 * char(n) (bpchar): the value is carried without its trailing spaces (the
 * dialect's cast cuts to n characters and trims, which is how PostgreSQL
 * reads a char(n) as text); bpcharout and bpcharsend print it padded with
 * spaces to n characters.
 */
export class BpcharCodec extends StringTCodec {
  constructor(elementOid: number, private readonly width: number) {
    super(elementOid);
  }
  text(out: MessageWriter, i: number): void {
    const start = out.pos;
    this.raw(out, i);
    // characters written: UTF-8 bytes that do not continue a character
    let chars = 0;
    for (let p = start; p < out.pos; p++) if ((out.buf[p]! & 0xc0) !== 0x80) chars++;
    const pad = this.width - chars;
    if (pad > 0) {
      out.ensure(pad);
      out.buf.fill(32, out.pos, out.pos + pad);
      out.pos += pad;
    }
  }
  binary(out: MessageWriter, i: number): void {
    this.text(out, i);
  }
}

/**
 * jsonb (3802) carried as DuckDB JSON: printed as jsonb_out does
 * (sql/jsonbText.ts: keys in jsonb's order, PostgreSQL's spacing);
 * binary is jsonb_send's version byte 1, then that text.
 */
export class JsonbCodec extends StringTCodec {
  protected override readonly textIsJson = true;
  private jsonb(i: number): Uint8Array {
    return Buffer.from(jsonbText(Buffer.from(this.item(i)).toString('utf8')), 'utf8');
  }
  text(out: MessageWriter, i: number): void {
    out.bytes(this.jsonb(i));
  }
  binary(out: MessageWriter, i: number): void {
    out.byte(1);
    out.bytes(this.jsonb(i));
  }
}

/**
 * An OID alias type whose value is kept as its text (a regtype the planner
 * printed, a regproc column): the text as it is, the OID in binary
 * (regtypesend, regprocsend), looked up by `oidOf`.
 */
export class NamedOidCodec extends StringTCodec {
  constructor(elementOid: number, private readonly typeName: string, private readonly oidOf: (text: string) => number | undefined) {
    super(elementOid);
  }
  text(out: MessageWriter, i: number): void {
    this.raw(out, i);
  }
  binary(out: MessageWriter, i: number): void {
    const text = Buffer.from(this.item(i)).toString('utf8');
    const oid = this.oidOf(text);
    if (oid === undefined) throw new PgError(SqlState.featureNotSupported, `binary output is not supported for ${this.typeName} ${text}`);
    out.ensure(4);
    out.pos = out.buf.writeUInt32BE(oid, out.pos);
  }
}

/** BLOB → bytea: '\x…' hex text, raw bytes in binary. */
export class BlobCodec extends StringTCodec {
  text(out: MessageWriter, i: number): void {
    const b = this.item(i);
    out.ensure(2 + b.length * 2);
    out.pos = writeByteaHex(out.buf, out.pos, b);
  }
  binary(out: MessageWriter, i: number): void {
    this.raw(out, i);
  }
}

/**
 * BIT → bit / varbit (one binary form). DuckDB stores a padding-count byte, then the bits with the
 * padding at the start; varbit_send wants int32 bit count, then the bits
 * left-aligned with the padding at the end.
 */
export class BitCodec extends StringTCodec {
  text(out: MessageWriter, i: number): void {
    const b = this.item(i);
    const padding = b[0] ?? 0;
    const bits = (b.length - 1) * 8 - padding;
    out.ensure(bits);
    for (let k = 0; k < bits; k++) {
      const bit = k + padding;
      out.buf[out.pos++] = (b[1 + (bit >> 3)]! >> (7 - (bit & 7))) & 1 ? 49 : 48;
    }
  }
  binary(out: MessageWriter, i: number): void {
    const b = this.item(i);
    const padding = b[0] ?? 0;
    const bits = (b.length - 1) * 8 - padding;
    const bytes = (bits + 7) >> 3;
    out.ensure(4 + bytes);
    out.pos = out.buf.writeInt32BE(bits, out.pos);
    out.buf.fill(0, out.pos, out.pos + bytes);
    for (let k = 0; k < bits; k++) {
      const bit = k + padding;
      if ((b[1 + (bit >> 3)]! >> (7 - (bit & 7))) & 1) out.buf[out.pos + (k >> 3)]! |= 0x80 >> (k & 7);
    }
    out.pos += bytes;
  }
}

/** ENUM: dictionary index → the member's UTF-8 bytes, prepared once. */
export class EnumCodec extends Codec {
  private items: Uint8Array | Uint16Array | Uint32Array = new Uint8Array(0);
  private readonly members: Buffer[];
  constructor(elementOid: number, values: readonly string[], private readonly width: 1 | 2 | 4) {
    super(elementOid);
    this.members = values.map((v) => Buffer.from(v, 'utf8'));
  }
  protected loadData(vec: RawVector, count: number): void {
    const d = vectorBytes(vec, count * this.width);
    this.items =
      this.width === 1 ? d : this.width === 2 ? new Uint16Array(d.buffer, d.byteOffset, count) : new Uint32Array(d.buffer, d.byteOffset, count);
  }
  text(out: MessageWriter, i: number): void {
    out.bytes(this.members[this.items[i]!]!);
  }
  binary(out: MessageWriter, i: number): void {
    this.text(out, i);
  }
}

/**
 * UUID: DuckDB stores a hugeint (lower uint64, upper int64, little-endian)
 * whose top bit is flipped so that signed order equals uuid order.
 */
export class UuidCodec extends Codec {
  private data = new Uint8Array(0);
  private readonly be = new Uint8Array(16);
  protected loadData(vec: RawVector, count: number): void {
    this.data = vectorBytes(vec, count * 16);
  }
  private bigEndian(i: number): Uint8Array {
    const d = this.data;
    const s = i * 16;
    const be = this.be;
    for (let k = 0; k < 8; k++) {
      be[k] = d[s + 15 - k]!;
      be[8 + k] = d[s + 7 - k]!;
    }
    be[0] ^= 0x80;
    return be;
  }
  text(out: MessageWriter, i: number): void {
    out.ensure(36);
    out.pos = writeUuid(out.buf, out.pos, this.bigEndian(i), 0);
  }
  binary(out: MessageWriter, i: number): void {
    out.bytes(this.bigEndian(i));
  }
}
