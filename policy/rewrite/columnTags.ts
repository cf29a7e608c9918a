/**
 * Column tags from a JSON file (the configured `dataGate.columnTagsFile`), for
 * tables whose catalog carries none: one object per table, keyed by the table's
 * policy resource `<database>.<table>` (database = the namespace path joined
 * with '.'), each in the format of SQE's Iceberg property `sqe.column-tags`:
 *
 *   { "sales.orders": { "ssn": ["PII"], "region": ["GEO"] } }
 *
 * The file is re-read when its modification time or size changes (checked at
 * most once per `checkIntervalMs`). A file that cannot be read or does not
 * validate makes the tag state unknown: every table then shows no rows
 * (fail closed) until a good file is back.
 */
import { readFileSync, statSync } from 'node:fs';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { PolicyResource } from '../../sql/catalogView.js';
import type { ColumnTags } from './decide.js';

const ColumnTagsFileSchema = z.record(z.string().min(1), z.record(z.string().min(1), z.array(z.string().min(1))));

export interface ColumnTagSource {
  /** Bumped on every change of what tagsFor answers. */
  readonly version: number;
  /** The table's column tags; undefined when the table has none; null when the tag state is unknown. */
  tagsFor(resource: PolicyResource): ColumnTags | null | undefined;
}

function ownRecord(cols: Record<string, string[]>): ColumnTags {
  const out = Object.create(null) as Record<string, string[]>;
  for (const [name, tags] of Object.entries(cols)) out[name] = tags;
  return out;
}

export class ColumnTagFile implements ColumnTagSource {
  private _version = 0;
  private tables: Map<string, ColumnTags> | null = null;
  private stamp = '';
  private checkedAt = -Infinity;

  constructor(
    private readonly path: string,
    private readonly log: Logger,
    private readonly checkIntervalMs = 1000,
    private readonly now: () => number = Date.now,
  ) {
    this.refresh();
  }

  get version(): number {
    this.maybeRefresh();
    return this._version;
  }

  tagsFor(resource: PolicyResource): ColumnTags | null | undefined {
    this.maybeRefresh();
    if (!this.tables) return null;
    return this.tables.get(`${resource.database}.${resource.table}`);
  }

  private maybeRefresh(): void {
    if (this.now() - this.checkedAt < this.checkIntervalMs) return;
    this.refresh();
  }

  private refresh(): void {
    this.checkedAt = this.now();
    let stamp: string;
    try {
      const st = statSync(this.path);
      stamp = `${st.mtimeMs}:${st.size}`;
    } catch (e) {
      this.fail(`cannot read ${this.path}: ${(e as Error).message}`, 'missing');
      return;
    }
    if (stamp === this.stamp && this.tables) return;
    try {
      const raw: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
      ColumnTagsFileSchema.parse(raw);
      // Built from the parsed JSON's own entries, not zod's copy (which loses a key named `__proto__`), into
      // null-prototype objects: a column called `constructor` or `__proto__` is only ever its own key.
      this.tables = new Map(Object.entries(raw as Record<string, Record<string, string[]>>).map(([table, cols]) => [table, ownRecord(cols)]));
      this.stamp = stamp;
      this._version++;
      this.log.info({ event: 'column-tags', state: 'loaded', path: this.path, tables: this.tables.size }, 'column tags loaded');
    } catch (e) {
      this.fail(`cannot use ${this.path}: ${(e as Error).message}`, stamp);
    }
  }

  private fail(why: string, stamp: string): void {
    if (this.tables === null && this.stamp === stamp) return;
    this.tables = null;
    this.stamp = stamp;
    this._version++;
    this.log.error({ event: 'column-tags', state: 'unknown', path: this.path }, `${why}: tag state unknown, tables show no rows`);
  }
}
