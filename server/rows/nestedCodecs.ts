/**
 * LIST / ARRAY as PostgreSQL arrays (array_out text, array_send binary), and
 * STRUCT / MAP / UNION (and lists PostgreSQL cannot type, e.g. nested lists)
 * as JSON text, which is also json's binary form.
 */
import { DuckDBVector, type DuckDBType } from '@duckdb/node-api';
import type { MessageWriter } from '../../protocol/writer.js';
import { needsArrayQuote, quoteArrayElementInPlace, writeArrayHeader } from '../../protocol/types/array.js';
import { jsonString } from '../../sql/jsonbText.js';
import { Codec, writeAscii } from './codec.js';
import { arrayChild, listChild, listChildSize, structChild, vectorBytes, type RawVector } from './rawVector.js';

/** LIST (offset/length entries) or fixed-size ARRAY (`fixedLength` elements per item). */
export class ListCodec extends Codec {
  private entries = new Uint32Array(0);
  protected override readonly textIsJson = true;
  constructor(
    elementOid: number,
    private readonly element: Codec,
    private readonly fixedLength: number | null,
    /** Render as a JSON array (the column is typed json): nested lists. */
    private readonly asJson: boolean,
  ) {
    super(elementOid);
  }
  protected loadData(vec: RawVector, count: number): void {
    if (this.fixedLength !== null) {
      this.element.load(arrayChild(vec), count * this.fixedLength);
      return;
    }
    const d = vectorBytes(vec, count * 16);
    // duckdb_list_entry {uint64 offset, uint64 length}; both fit in 32 bits for any chunk DuckDB hands out.
    this.entries = new Uint32Array(d.buffer, d.byteOffset, count * 4);
    this.element.load(listChild(vec), listChildSize(vec));
  }
  protected start(i: number): number {
    return this.fixedLength !== null ? i * this.fixedLength : this.entries[i * 4]!;
  }
  protected length(i: number): number {
    return this.fixedLength !== null ? this.fixedLength : this.entries[i * 4 + 2]!;
  }
  text(out: MessageWriter, i: number): void {
    if (this.asJson) {
      this.json(out, i);
      return;
    }
    const el = this.element;
    const from = this.start(i);
    const n = this.length(i);
    out.ensure(2);
    out.buf[out.pos++] = 123; // '{'
    for (let k = 0; k < n; k++) {
      if (k > 0) {
        out.ensure(1);
        out.buf[out.pos++] = 44;
      }
      const j = from + k;
      if (!el.valid(j)) {
        writeAscii(out, 'NULL');
        continue;
      }
      const s = out.pos;
      el.text(out, j);
      if (needsArrayQuote(out.buf, s, out.pos)) {
        out.ensure(2 * (out.pos - s) + 2);
        out.pos = quoteArrayElementInPlace(out.buf, s, out.pos);
      }
    }
    out.ensure(1);
    out.buf[out.pos++] = 125; // '}'
  }
  binary(out: MessageWriter, i: number): void {
    if (this.asJson) {
      this.json(out, i);
      return;
    }
    const el = this.element;
    const from = this.start(i);
    const n = this.length(i);
    let hasNull = false;
    for (let k = 0; k < n; k++) if (!el.valid(from + k)) hasNull = true;
    out.ensure(20);
    out.pos = writeArrayHeader(out.buf, out.pos, el.elementOid, n, hasNull);
    for (let k = 0; k < n; k++) {
      const j = from + k;
      out.ensure(4);
      if (!el.valid(j)) {
        out.pos = out.buf.writeInt32BE(-1, out.pos);
        continue;
      }
      const lenAt = out.pos;
      out.pos += 4;
      el.binary(out, j);
      out.buf.writeInt32BE(out.pos - lenAt - 4, lenAt);
    }
  }
  override json(out: MessageWriter, i: number): void {
    const el = this.element;
    const from = this.start(i);
    const n = this.length(i);
    out.ensure(1);
    out.buf[out.pos++] = 91; // '['
    for (let k = 0; k < n; k++) {
      if (k > 0) writeAscii(out, ',');
      if (el.valid(from + k)) el.json(out, from + k);
      else writeAscii(out, 'null');
    }
    writeAscii(out, ']');
  }
}

/**
 * int2vector / oidvector held in a list: PostgreSQL's text form is the numbers
 * separated by blanks (`1 3`), not an array literal. No binary form: these
 * arrays are zero-based, which a list does not say (describe refuses it).
 */
export class VectorCodec extends ListCodec {
  constructor(elementOid: number, private readonly items: Codec) {
    super(elementOid, items, null, false);
  }
  override text(out: MessageWriter, i: number): void {
    const from = this.start(i);
    const n = this.length(i);
    for (let k = 0; k < n; k++) {
      if (k > 0) writeAscii(out, ' ');
      if (this.items.valid(from + k)) this.items.text(out, from + k);
    }
  }
}

/** STRUCT → {"name":value,...} (DuckDB's to_json layout: no spaces). */
export class StructCodec extends Codec {
  protected override readonly textIsJson = true;
  private readonly keys: Buffer[];
  constructor(elementOid: number, names: readonly string[], private readonly children: Codec[]) {
    super(elementOid);
    this.keys = names.map((n) => Buffer.from(`${jsonString(n)}:`, 'utf8'));
  }
  protected loadData(vec: RawVector, count: number): void {
    this.children.forEach((c, k) => c.load(structChild(vec, k), count));
  }
  text(out: MessageWriter, i: number): void {
    this.json(out, i);
  }
  binary(out: MessageWriter, i: number): void {
    this.json(out, i);
  }
  override json(out: MessageWriter, i: number): void {
    writeAscii(out, '{');
    for (let k = 0; k < this.children.length; k++) {
      if (k > 0) writeAscii(out, ',');
      out.bytes(this.keys[k]!);
      const c = this.children[k]!;
      if (c.valid(i)) c.json(out, i);
      else writeAscii(out, 'null');
    }
    writeAscii(out, '}');
  }
}

/** MAP (a list of {key, value} structs) → {"key":value,...} with keys as JSON strings. */
export class MapCodec extends Codec {
  protected override readonly textIsJson = true;
  private entries = new Uint32Array(0);
  constructor(elementOid: number, private readonly keys: Codec, private readonly values: Codec) {
    super(elementOid);
  }
  protected loadData(vec: RawVector, count: number): void {
    const d = vectorBytes(vec, count * 16);
    this.entries = new Uint32Array(d.buffer, d.byteOffset, count * 4);
    const child = listChild(vec);
    const size = listChildSize(vec);
    this.keys.load(structChild(child, 0), size);
    this.values.load(structChild(child, 1), size);
  }
  text(out: MessageWriter, i: number): void {
    this.json(out, i);
  }
  binary(out: MessageWriter, i: number): void {
    this.json(out, i);
  }
  override json(out: MessageWriter, i: number): void {
    const from = this.entries[i * 4]!;
    const n = this.entries[i * 4 + 2]!;
    writeAscii(out, '{');
    for (let k = 0; k < n; k++) {
      if (k > 0) writeAscii(out, ',');
      const j = from + k;
      // Object keys must be strings: quote the key's text form (numbers included).
      const s = out.pos;
      this.keys.text(out, j);
      const text = out.buf.toString('utf8', s, out.pos);
      out.pos = s;
      out.bytes(Buffer.from(`${jsonString(text)}:`, 'utf8'));
      if (this.values.valid(j)) this.values.json(out, j);
      else writeAscii(out, 'null');
    }
    writeAscii(out, '}');
  }
}

/** UNION: a struct whose child 0 is the UTINYINT tag; the value is the active member's. */
export class UnionCodec extends Codec {
  protected override readonly textIsJson = true;
  private tags = new Uint8Array(0);
  constructor(elementOid: number, private readonly members: Codec[]) {
    super(elementOid);
  }
  protected loadData(vec: RawVector, count: number): void {
    this.tags = vectorBytes(structChild(vec, 0), count);
    this.members.forEach((m, k) => m.load(structChild(vec, k + 1), count));
  }
  text(out: MessageWriter, i: number): void {
    this.json(out, i);
  }
  binary(out: MessageWriter, i: number): void {
    this.json(out, i);
  }
  override json(out: MessageWriter, i: number): void {
    const m = this.members[this.tags[i]!]!;
    if (m.valid(i)) m.json(out, i);
    else writeAscii(out, 'null');
  }
}

/** The NULL type: every item is NULL (an all-zero validity bitmap, which the encoder reads directly). */
export class NullCodec extends Codec {
  override load(_vec: RawVector, count: number): void {
    this.validity = new Uint8Array(Math.ceil(count / 8) + 1);
  }
  protected loadData(): void {}
  text(): void {}
  binary(): void {}
}

/**
 * Types without a raw-memory reader (BIGNUM, GEOMETRY, VARIANT ...): node-api
 * decodes them and the text is the value's own string. Slow, but rare.
 */
export class GenericCodec extends Codec {
  private vector: DuckDBVector | null = null;
  constructor(elementOid: number, private readonly type: DuckDBType, private readonly toBinary: ((v: unknown) => Buffer) | null) {
    super(elementOid);
  }
  protected loadData(vec: RawVector, count: number): void {
    this.vector = DuckDBVector.create(vec, count, this.type);
  }
  text(out: MessageWriter, i: number): void {
    out.bytes(Buffer.from(String(this.vector!.getItem(i)), 'utf8'));
  }
  binary(out: MessageWriter, i: number): void {
    // Without a send function the column is text/json on the wire, whose binary form is its text.
    if (!this.toBinary) this.text(out, i);
    else out.bytes(this.toBinary(this.vector!.getItem(i)));
  }
}
