/**
 * PostgreSQL's NOTICE texts for a write that skips what is already done
 * (IF NOT EXISTS, IF EXISTS), and the plan of a statement that does nothing.
 * The SQLSTATE each is sent with: `noticeCode`.
 */
import type { CatalogWrite } from './plan.js';

export const alreadyExists = (relation: string): string => `relation "${relation}" already exists, skipping`;
export const schemaExists = (schema: string): string => `schema "${schema}" already exists, skipping`;
export const columnExists = (column: string, relation: string): string => `column "${column}" of relation "${relation}" already exists, skipping`;
export const columnDoesNotExist = (column: string, relation: string): string => `column "${column}" of relation "${relation}" does not exist, skipping`;
/** `table "t" does not exist, skipping`, `view …`, `schema …`, `relation …` (ALTER … IF EXISTS), `column "c" of relation "t" …`. */
export const doesNotExist = (what: string, name: string): string => `${what} "${name}" does not exist, skipping`;

/** The SQLSTATE PostgreSQL sends a notice of this module with: 42P07 / 42P06 / 42701 for what exists, 00000 for what does not. */
export function noticeCode(message: string): string {
  if (message.endsWith('does not exist, skipping')) return '00000';
  if (message.startsWith('schema ')) return '42P06';
  if (message.startsWith('column ')) return '42701';
  return '42P07';
}

/** A statement that did nothing, and its NOTICE. */
export const nothing = (tag: string, notice: string): CatalogWrite => ({ kind: 'catalog', tag, op: { op: 'nothing' }, notice });
