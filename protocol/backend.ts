/**
 * Backend (server → client) messages, one function per message named as in
 * the PostgreSQL documentation, each appending to a MessageWriter.
 */
import type { PgError } from './errors.js';
import type { MessageWriter } from './writer.js';

export interface FieldDescription {
  name: string;
  tableOid: number;
  columnAttr: number;
  typeOid: number;
  typeLen: number;
  typeMod: number;
  format: 0 | 1;
}

export type TransactionStatus = 'I' | 'T' | 'E';

export const authenticationOk = (w: MessageWriter) => w.begin('R').int32(0).end();
export const authenticationCleartextPassword = (w: MessageWriter) => w.begin('R').int32(3).end();

export function authenticationSASL(w: MessageWriter, mechanisms: string[]): void {
  w.begin('R').int32(10);
  for (const m of mechanisms) w.cstring(m);
  w.byte(0).end();
}

export const authenticationSASLContinue = (w: MessageWriter, data: string) =>
  w.begin('R').int32(11).bytes(Buffer.from(data)).end();

export const authenticationSASLFinal = (w: MessageWriter, data: string) =>
  w.begin('R').int32(12).bytes(Buffer.from(data)).end();

export const parameterStatus = (w: MessageWriter, name: string, value: string) =>
  w.begin('S').cstring(name).cstring(value).end();

export const backendKeyData = (w: MessageWriter, pid: number, secret: number) =>
  w.begin('K').int32(pid).int32(secret).end();

export const readyForQuery = (w: MessageWriter, status: TransactionStatus) =>
  w.begin('Z').byte(status.charCodeAt(0)).end();

export function negotiateProtocolVersion(w: MessageWriter, newestMinor: number, unrecognized: string[]): void {
  w.begin('v').int32(newestMinor).int32(unrecognized.length);
  for (const o of unrecognized) w.cstring(o);
  w.end();
}

export function rowDescription(w: MessageWriter, fields: readonly FieldDescription[]): void {
  w.begin('T').int16(fields.length);
  for (const f of fields) {
    w.cstring(f.name).int32(f.tableOid).int16(f.columnAttr).int32(f.typeOid).int16(f.typeLen).int32(f.typeMod);
    w.int16(f.format);
  }
  w.end();
}

export function parameterDescription(w: MessageWriter, oids: readonly number[]): void {
  w.begin('t').int16(oids.length);
  for (const oid of oids) w.int32(oid | 0);
  w.end();
}

export const commandComplete = (w: MessageWriter, tag: string) => w.begin('C').cstring(tag).end();
export const emptyQueryResponse = (w: MessageWriter) => w.begin('I').end();
export const parseComplete = (w: MessageWriter) => w.begin('1').end();
export const bindComplete = (w: MessageWriter) => w.begin('2').end();
export const closeComplete = (w: MessageWriter) => w.begin('3').end();
export const noData = (w: MessageWriter) => w.begin('n').end();
export const portalSuspended = (w: MessageWriter) => w.begin('s').end();

function fields(w: MessageWriter, e: PgError | NoticeFields): void {
  const severity = e.severity;
  w.byte(0x53).cstring(severity); // S: localized severity
  w.byte(0x56).cstring(severity); // V: non-localized severity
  w.byte(0x43).cstring(e.code);
  w.byte(0x4d).cstring(e.message);
  if (e.detail) w.byte(0x44).cstring(e.detail);
  if (e.hint) w.byte(0x48).cstring(e.hint);
  if (e.position !== undefined) w.byte(0x50).cstring(String(e.position));
  if ('where' in e && e.where) w.byte(0x57).cstring(e.where); // W: context
  w.byte(0);
}

/** CopyInResponse: every column in text (COPY FROM STDIN takes text and CSV only). */
export function copyInResponse(w: MessageWriter, columns: number): void {
  w.begin('G').byte(0).int16(columns);
  for (let i = 0; i < columns; i++) w.int16(0);
  w.end();
}

export function errorResponse(w: MessageWriter, e: PgError): void {
  w.begin('E');
  fields(w, e);
  w.end();
}

export interface NoticeFields {
  severity: 'WARNING' | 'NOTICE' | 'INFO' | 'LOG' | 'DEBUG';
  code: string;
  message: string;
  detail?: string;
  hint?: string;
  position?: number;
}

export function noticeResponse(w: MessageWriter, n: NoticeFields): void {
  w.begin('N');
  fields(w, n);
  w.end();
}
