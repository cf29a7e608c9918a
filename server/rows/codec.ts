/**
 * A column codec turns item i of a raw DuckDB vector into PostgreSQL text or
 * binary bytes, appended to a MessageWriter (without the int32 length, which
 * the caller patches). One codec instance per result column (and per nested
 * child), re-pointed at each chunk's vector by load(); no allocation per value
 * on the fixed-width paths.
 */
import type { MessageWriter } from '../../protocol/writer.js';
import { jsonQuoteInPlace } from '../../protocol/types/json.js';
import { vectorValidity, type RawVector } from './rawVector.js';

export abstract class Codec {
  /** Validity bitmap of the loaded vector (null = all valid); read directly by the encoder's row loop. */
  validity: Uint8Array | null = null;
  /** PostgreSQL OID written by array_send for elements of this codec. */
  constructor(readonly elementOid: number) {}

  /** Point at a vector holding `count` items. */
  load(vec: RawVector, count: number): void {
    this.validity = vectorValidity(vec, count);
    this.loadData(vec, count);
  }

  protected abstract loadData(vec: RawVector, count: number): void;

  valid(i: number): boolean {
    const v = this.validity;
    return v === null || (v[i >> 3]! & (1 << (i & 7))) !== 0;
  }

  /** Text output of a valid item. */
  abstract text(out: MessageWriter, i: number): void;
  /** Binary (send) output of a valid item. */
  abstract binary(out: MessageWriter, i: number): void;

  /** Whether text() is already a JSON value (numbers, booleans, nested JSON); else json() quotes it. */
  protected readonly textIsJson: boolean = false;

  /** The item as a JSON value inside struct/map/union/nested-list output. */
  json(out: MessageWriter, i: number): void {
    const start = out.pos;
    this.text(out, i);
    if (this.textIsJson) return;
    const len = out.pos - start;
    out.ensure(len * 5 + 2);
    out.pos = jsonQuoteInPlace(out.buf, start, out.pos);
  }
}

/** ASCII of a JS string known to be Latin-1 (digits, float text, interval text). */
export function writeAscii(out: MessageWriter, s: string): void {
  out.ensure(s.length);
  const buf = out.buf;
  let p = out.pos;
  for (let k = 0; k < s.length; k++) buf[p++] = s.charCodeAt(k);
  out.pos = p;
}
