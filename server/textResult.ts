/**
 * Small all-text results the gateway answers itself (SHOW, EXPLAIN) without
 * the engine.
 */
import * as be from '../protocol/backend.js';
import type { MessageWriter } from '../protocol/writer.js';
import type { PgField } from './rows/api.js';

export const textField = (name: string): PgField => ({
  name,
  tableOid: 0,
  columnAttr: 0,
  typeOid: 25,
  typeLen: -1,
  typeMod: -1,
  format: 0,
});

export function dataRowText(w: MessageWriter, values: readonly (string | null)[]): void {
  w.begin('D').int16(values.length);
  for (const v of values) {
    if (v === null) w.int32(-1);
    else w.lengthPrefixedString(v);
  }
  w.end();
}

export interface TextResult {
  fields: PgField[];
  rows: (string | null)[][];
  tag: string;
  /** Sent before the result, as PostgreSQL sends a statement's NOTICEs. */
  notices?: be.NoticeFields[];
}

export function writeTextResult(w: MessageWriter, r: TextResult, describe: boolean): void {
  for (const n of r.notices ?? []) be.noticeResponse(w, n);
  if (describe) be.rowDescription(w, r.fields);
  for (const row of r.rows) dataRowText(w, row);
  be.commandComplete(w, r.tag);
}
