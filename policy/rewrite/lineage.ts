/**
 * Tags follow the data: a column lakegate writes carries the tags of every
 * column its value is computed from (sql/write/sources.ts says which, and
 * states the rule), so a tag mask on `ssn` also masks `ssn` copied into
 * `analytics.t`, whoever made the copy — an unmasked administrator's CREATE
 * TABLE AS does not publish raw PII to everyone.
 *
 * A source column's tags are the ones the data gate decides it by: the
 * table's own (`sqe.column-tags`, keyed by the column's current name) or the
 * configured `dataGate.columnTagsFile`; a temporary table's column carries
 * what the session recorded when it filled it. Tags are taken whatever the
 * writer saw of the column (a masked or restricted value is still derived
 * from it). A source whose tag state cannot be read refuses the write
 * (42501): lakegate will not write a column whose tags it cannot tell.
 */
import { policyNameOf, type CatalogTable } from '../../sql/catalogView.js';
import { SqlError } from '../../sql/errors.js';
import type { OutputColumn, SourceColumn } from '../../sql/write/sources.js';
import type { ColumnTags } from './decide.js';

/** The tags of a table's columns (null: they cannot be read). */
export type TableTagsOf = (table: CatalogTable) => ColumnTags | null | undefined;

function sourceTags(s: SourceColumn, tagsOf: TableTagsOf): readonly string[] {
  if (s.kind === 'temp') return s.table.columns.find((c) => c.name === s.column)?.tags ?? [];
  const tags = tagsOf(s.table);
  if (tags === null) {
    throw new SqlError('42501', `permission denied: the column tags of relation "${s.table.schema}.${s.table.name}" cannot be read`, undefined, {
      detail: 'A column written from it would carry tags lakegate cannot tell.',
    });
  }
  const column = s.table.columns.find((c) => c.name === s.column);
  const key = column ? policyNameOf(column) : s.column;
  if (!tags || key === null || !Object.hasOwn(tags, key)) return [];
  return tags[key]!;
}

/** Each output column's tags (sorted, each once), by the column's name; columns without any are left out. */
export function lineageTags(outputs: readonly OutputColumn[], tagsOf: TableTagsOf): Record<string, string[]> {
  const out = Object.create(null) as Record<string, string[]>;
  for (const o of outputs) {
    const tags = new Set<string>(Object.hasOwn(out, o.name) ? out[o.name] : []);
    for (const s of o.sources) for (const t of sourceTags(s, tagsOf)) tags.add(t);
    if (tags.size > 0) out[o.name] = [...tags].sort();
  }
  return out;
}
