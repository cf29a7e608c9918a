/**
 * Iceberg's metadata tables as Trino names them: `orders$snapshots`,
 * `$history`, `$refs` (from the table's metadata JSON), `$files`,
 * `$manifests`, `$partitions` (from the current snapshot's manifest list and
 * manifests, read here with avsc so that no catalog token or storage
 * credential goes anywhere new). Columns and their names are Trino's; a
 * Trino map, row or array of rows is JSON here (lakegate presents a DuckDB
 * MAP or STRUCT as json anyway).
 *
 * A metadata table is a table of the catalog like its base table: it is
 * loaded as the base table (the catalog gate's decision) and decided as the
 * base table (the data gate's: no read right, no metadata table). Its rows
 * are built only once the data gate has decided what the user may see of the
 * base table (MetadataHiding): statistics and partition values of a column
 * the user sees masked or restricted are NULL entry by entry, and on a table
 * with a row filter every record count, statistic and partition value is
 * NULL, because they describe rows the user may not see; a data file's path
 * is NULL when one of its partition values is (writers put them in it).
 */
import { z } from 'zod';
import { DEFAULT_TREE_LIMITS } from '../../sql/limits.js';
import { parseStatements, parseStatementsUncached } from '../../sql/parse.js';
import type { CatalogColumn, CatalogTable, MetadataHiding } from '../../sql/catalogView.js';
import { SqlError } from '../../sql/errors.js';
import type { PgNode } from '../../sql/walk.js';
import type { JsonObject, LoadedTable, Namespace } from './api.js';
import { schemaById, type IcebergType, type NestedField } from './metadata.js';
import { avroRecords } from './tableFiles.js';

export const METADATA_TABLES = ['snapshots', 'history', 'refs', 'files', 'manifests', 'partitions'] as const;
export type MetadataTableKind = (typeof METADATA_TABLES)[number];

/**
 * At most this many rows (and manifest entries read) per metadata table: its
 * rows travel in the statement's text, and 2,000 $files rows of a 20-column
 * table took ~1 s to plan (parse, re-parse check) on the event loop, where it
 * delays every other session; 500 keep that near a quarter of a second until
 * the rows reach the engine outside the SQL text.
 */
export const MAX_METADATA_ROWS = 500;

/** `orders$files` → orders, files; null when the suffix is not a metadata table's. */
export function splitMetadataName(name: string): { base: string; kind: MetadataTableKind } | null {
  const at = name.lastIndexOf('$');
  if (at <= 0) return null;
  const kind = name.slice(at + 1);
  return (METADATA_TABLES as readonly string[]).includes(kind) ? { base: name.slice(0, at), kind: kind as MetadataTableKind } : null;
}

const col = (name: string, duckType: string): CatalogColumn => ({ name, duckType, nullable: true });
const TS = 'TIMESTAMP WITH TIME ZONE';

export const METADATA_COLUMNS: Record<MetadataTableKind, CatalogColumn[]> = {
  snapshots: [col('committed_at', TS), col('snapshot_id', 'BIGINT'), col('parent_id', 'BIGINT'), col('operation', 'VARCHAR'), col('manifest_list', 'VARCHAR'), col('summary', 'JSON')],
  history: [col('made_current_at', TS), col('snapshot_id', 'BIGINT'), col('parent_id', 'BIGINT'), col('is_current_ancestor', 'BOOLEAN')],
  refs: [
    col('name', 'VARCHAR'),
    col('type', 'VARCHAR'),
    col('snapshot_id', 'BIGINT'),
    col('max_reference_age_in_ms', 'BIGINT'),
    col('min_snapshots_to_keep', 'INTEGER'),
    col('max_snapshot_age_in_ms', 'BIGINT'),
  ],
  files: [
    col('content', 'INTEGER'),
    col('file_path', 'VARCHAR'),
    col('file_format', 'VARCHAR'),
    col('spec_id', 'INTEGER'),
    col('partition', 'JSON'),
    col('record_count', 'BIGINT'),
    col('file_size_in_bytes', 'BIGINT'),
    col('column_sizes', 'JSON'),
    col('value_counts', 'JSON'),
    col('null_value_counts', 'JSON'),
    col('nan_value_counts', 'JSON'),
    col('lower_bounds', 'JSON'),
    col('upper_bounds', 'JSON'),
    col('key_metadata', 'BLOB'),
    col('split_offsets', 'BIGINT[]'),
    col('equality_ids', 'INTEGER[]'),
    col('sort_order_id', 'INTEGER'),
  ],
  manifests: [
    col('path', 'VARCHAR'),
    col('length', 'BIGINT'),
    col('partition_spec_id', 'INTEGER'),
    col('added_snapshot_id', 'BIGINT'),
    col('added_data_files_count', 'INTEGER'),
    col('added_rows_count', 'BIGINT'),
    col('existing_data_files_count', 'INTEGER'),
    col('existing_rows_count', 'BIGINT'),
    col('deleted_data_files_count', 'INTEGER'),
    col('deleted_rows_count', 'BIGINT'),
    col('partition_summaries', 'JSON'),
  ],
  partitions: [col('partition', 'JSON'), col('record_count', 'BIGINT'), col('file_count', 'BIGINT'), col('total_size', 'BIGINT')],
};

// ------------------------------------------------------------ the metadata JSON, as far as these tables read it

const Int64 = z.union([z.number().int(), z.bigint()]).transform((v) => BigInt(v));
const RawMetadata = z.object({
  snapshots: z
    .array(
      z.object({
        'snapshot-id': Int64,
        'parent-snapshot-id': Int64.nullish(),
        'timestamp-ms': z.number().int(),
        'manifest-list': z.string().optional(),
        summary: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .default([]),
  'current-snapshot-id': Int64.nullish(),
  'snapshot-log': z.array(z.object({ 'snapshot-id': Int64, 'timestamp-ms': z.number().int() })).default([]),
  refs: z
    .record(
      z.string(),
      z.object({
        'snapshot-id': Int64,
        type: z.string(),
        'max-ref-age-ms': Int64.nullish(),
        'max-snapshot-age-ms': Int64.nullish(),
        'min-snapshots-to-keep': z.number().int().nullish(),
      }),
    )
    .default({}),
  'partition-specs': z
    .array(z.object({ 'spec-id': z.number().int(), fields: z.array(z.object({ 'source-id': z.number().int(), name: z.string(), transform: z.string() })) }))
    .optional(),
  /** format v1 */
  'partition-spec': z.array(z.object({ 'source-id': z.number().int(), name: z.string(), transform: z.string() })).optional(),
});
type RawMetadata = z.output<typeof RawMetadata>;
type SpecField = { 'source-id': number; name: string; transform: string };

// ------------------------------------------------------------ reading

/** What a metadata table's rows are built from, read before the statement is planned. */
export interface MetadataSource {
  meta: RawMetadata;
  /** the current snapshot's manifest list records ($manifests) */
  manifests: JsonObject[];
  /** the live entries' data_file records of the current snapshot ($files, $partitions) */
  files: JsonObject[];
}

const needsManifests = (kind: MetadataTableKind) => kind === 'files' || kind === 'manifests' || kind === 'partitions';

const tooMany = (name: string) =>
  new SqlError('54000', `metadata table "${name}" has more than ${MAX_METADATA_ROWS} rows`, undefined, {
    hint: 'lakegate reads at most that many rows of an Iceberg metadata table.',
  });

/**
 * Reads what the rows of `kind` need. A failure is not thrown here: the user
 * may turn out not to be allowed to read the table, and must then get the
 * same answer as for a missing one. It is thrown when the rows are built.
 */
export async function readMetadataSource(kind: MetadataTableKind, loaded: LoadedTable, name: string): Promise<MetadataSource | SqlError> {
  const parsed = RawMetadata.safeParse(loaded.raw ?? {});
  if (!parsed.success) return new SqlError('XX000', `the metadata of "${name}" cannot be read: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const meta = parsed.data;
  const source: MetadataSource = { meta, manifests: [], files: [] };
  if (!needsManifests(kind)) return source;
  const current = meta['current-snapshot-id'];
  const snap = current === null || current === undefined ? undefined : meta.snapshots.find((s) => s['snapshot-id'] === current);
  if (!snap?.['manifest-list']) return source;
  try {
    source.manifests = await avroRecords(snap['manifest-list']);
    if (source.manifests.length > MAX_METADATA_ROWS) return tooMany(name);
    if (kind === 'manifests') return source;
    for (const m of source.manifests) {
      for (const e of await avroRecords(String(m['manifest_path']))) {
        if (Number(e['status']) === 2) continue; // DELETED: no longer part of the snapshot
        source.files.push(e['data_file'] as JsonObject);
        if (source.files.length > MAX_METADATA_ROWS) return tooMany(name);
      }
    }
  } catch (e) {
    const local = snap['manifest-list'].startsWith('/') || snap['manifest-list'].startsWith('file:');
    if (!local) {
      return new SqlError('0A000', `metadata table "${name}" is not supported for tables on object storage`, undefined, {
        hint: '$files, $manifests and $partitions read the manifests from the local warehouse only; $snapshots, $history and $refs work everywhere.',
      });
    }
    return new SqlError('58030', `could not read the manifests of "${name}": ${(e as Error).message}`);
  }
  return source;
}

// ------------------------------------------------------------ cells and SQL

export type Cell = null | string | bigint | number | boolean | { json: unknown } | { array: readonly (bigint | number)[] } | { hex: string };

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** JSON text with 64-bit integers exact. */
function jsonText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : JSON.stringify(String(v));
  if (typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jsonText).join(',')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${JSON.stringify(k)}:${jsonText(x)}`)
    .join(',')}}`;
}

function literal(c: Cell): string {
  if (c === null) return 'NULL';
  if (typeof c === 'string') return quote(c);
  if (typeof c === 'bigint') return c.toString();
  if (typeof c === 'number') return Number.isInteger(c) ? String(c) : quote(String(c));
  if (typeof c === 'boolean') return c ? 'true' : 'false';
  if ('json' in c) return c.json === null || c.json === undefined ? 'NULL' : quote(jsonText(c.json));
  if ('array' in c) return c.array.length === 0 ? 'ARRAY[]' : `ARRAY[${c.array.map(String).join(', ')}]`;
  return `unhex(${quote(c.hex)})`;
}

/** The rows as a SELECT over VALUES, each column cast to its type (an empty table: one row filtered out). */
function rowsSelect(columns: readonly CatalogColumn[], rows: readonly Cell[][]): PgNode {
  const names = columns.map((_, i) => `c${i}`);
  const targets = columns.map((c, i) => `CAST(${rows.length === 0 ? 'NULL' : names[i]} AS ${c.duckType}) AS "${c.name}"`).join(', ');
  const sql =
    rows.length === 0
      ? `SELECT ${targets} WHERE false`
      : `SELECT ${targets} FROM (VALUES ${rows.map((r) => `(${r.map(literal).join(', ')})`).join(', ')}) AS lg_meta(${names.join(', ')})`;
  // Built by lakegate from the table's metadata, not the user's text: the statement limits are not its bound
  // (MAX_METADATA_ROWS is), and it is not kept in the parse cache.
  return parseStatementsUncached(sql, { maxNodes: Number.MAX_SAFE_INTEGER, maxDepth: DEFAULT_TREE_LIMITS.maxDepth })[0]!.node;
}

// ------------------------------------------------------------ values as Trino shows them

const ts = (ms: number) => `${new Date(ms).toISOString().slice(0, 23).replace('T', ' ')}+00`;
const int = (v: unknown): bigint | null => (typeof v === 'bigint' ? v : typeof v === 'number' ? BigInt(v) : null);

/** An Iceberg single-value serialization (bounds) as text, by the field's type. */
export function boundText(type: IcebergType | undefined, bytes: Buffer): string {
  if (typeof type !== 'string') return bytes.toString('hex');
  try {
    switch (type) {
      case 'boolean':
        return bytes[0] ? 'true' : 'false';
      case 'int':
        return String(bytes.readInt32LE(0));
      case 'date':
        return new Date(bytes.readInt32LE(0) * 86_400_000).toISOString().slice(0, 10);
      case 'long':
        return bytes.readBigInt64LE(0).toString();
      case 'float':
        return String(bytes.readFloatLE(0));
      case 'double':
        return String(bytes.readDoubleLE(0));
      case 'string':
        return bytes.toString('utf8');
      case 'timestamp':
      case 'timestamptz': {
        const us = bytes.readBigInt64LE(0);
        const d = new Date(Number(us / 1000n)).toISOString().slice(0, 19).replace('T', ' ');
        const frac = String(((us % 1_000_000n) + 1_000_000n) % 1_000_000n).padStart(6, '0');
        return `${d}.${frac}${type === 'timestamptz' ? ' UTC' : ''}`;
      }
    }
    const dec = /^decimal\(\s*\d+\s*,\s*(\d+)\s*\)$/.exec(type);
    if (dec) {
      let n = 0n;
      for (const b of bytes) n = (n << 8n) | BigInt(b);
      if (bytes.length > 0 && bytes[0]! & 0x80) n -= 1n << BigInt(8 * bytes.length);
      const scale = Number(dec[1]);
      const neg = n < 0n;
      const digits = (neg ? -n : n).toString().padStart(scale + 1, '0');
      return `${neg ? '-' : ''}${scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`}`;
    }
  } catch {
    // a bound shorter than its type: shown as bytes
  }
  return bytes.toString('hex');
}

/** Every field id of the current schema (nested ones too) with its type and the top-level column it belongs to. */
function fieldsOf(loaded: LoadedTable): Map<number, { column: string; type: IcebergType }> {
  const out = new Map<number, { column: string; type: IcebergType }>();
  const visit = (column: string, id: number, type: IcebergType) => {
    out.set(id, { column, type });
    if (typeof type === 'string') return;
    if (type.type === 'struct') for (const f of type.fields) visit(column, f.id, f.type);
    else if (type.type === 'list') visit(column, type['element-id'], type.element);
    else {
      visit(column, type['key-id'], type.key);
      visit(column, type['value-id'], type.value);
    }
  };
  let fields: NestedField[] = [];
  try {
    fields = schemaById(loaded.metadata, undefined).fields;
  } catch {
    // no readable schema: every field id is unknown, so hidden
  }
  for (const f of fields) visit(f.name, f.id, f.type);
  return out;
}

/** Avro's int-keyed maps (arrays of key/value records, or objects) as [key, value] pairs. */
function pairs(v: unknown): [number, unknown][] {
  if (Array.isArray(v)) return v.map((e) => [Number((e as JsonObject)['key']), (e as JsonObject)['value']]);
  if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => [Number(k), x]);
  return [];
}

function partitionValue(v: unknown): unknown {
  if (Buffer.isBuffer(v)) return v.toString('hex');
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    // an Avro union decoded as { type: value }
    const vals = Object.values(v);
    return vals.length === 1 ? partitionValue(vals[0]) : jsonText(v);
  }
  return v ?? null;
}

// ------------------------------------------------------------ the rows, with what the user may not see hidden

class Rows {
  private readonly fields: Map<number, { column: string; type: IcebergType }>;
  private readonly specs: Map<number, SpecField[]>;

  constructor(
    private readonly kind: MetadataTableKind,
    loaded: LoadedTable,
    private readonly source: MetadataSource,
  ) {
    this.fields = fieldsOf(loaded);
    const m = source.meta;
    this.specs = new Map((m['partition-specs'] ?? [{ 'spec-id': 0, fields: m['partition-spec'] ?? [] }]).map((s) => [s['spec-id'], s.fields]));
  }

  /** A field the user sees as stored: one of today's columns that is neither masked nor restricted. */
  private visible(fieldId: number, h: MetadataHiding): boolean {
    const f = this.fields.get(fieldId);
    return f !== undefined && h.visibleColumns.has(f.column);
  }

  /** A partition tuple as JSON, each field NULL whose source column the user may not see. */
  private partition(specId: number, value: unknown, h: MetadataHiding): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const record = (value ?? {}) as JsonObject;
    for (const f of this.specs.get(specId) ?? []) out[f.name] = this.visible(f['source-id'], h) ? partitionValue(record[f.name]) : null;
    // a field the spec does not name (a spec lakegate could not read): hidden
    for (const k of Object.keys(record)) if (!(k in out)) out[k] = null;
    return out;
  }

  /**
   * Some partition value of the file is hidden from the user: its path is too,
   * since writers put the values in it (`data/region=EU/…`).
   */
  private partitionHidden(specId: number, value: unknown, h: MetadataHiding): boolean {
    const fields = this.specs.get(specId) ?? [];
    const named = new Set(fields.map((f) => f.name));
    if (Object.keys((value ?? {}) as JsonObject).some((k) => !named.has(k))) return true;
    return fields.some((f) => h.rowFiltered || !this.visible(f['source-id'], h));
  }

  private statMap(v: unknown, h: MetadataHiding, bounds: boolean): Cell {
    if (v === null || v === undefined) return null;
    const out: Record<string, unknown> = {};
    for (const [id, x] of pairs(v)) {
      if (!this.visible(id, h)) out[String(id)] = null;
      else out[String(id)] = bounds ? boundText(this.fields.get(id)?.type, x as Buffer) : x;
    }
    return { json: out };
  }

  build(h: MetadataHiding): Cell[][] {
    const m = this.source.meta;
    const byId = new Map(m.snapshots.map((s) => [s['snapshot-id'], s]));
    switch (this.kind) {
      case 'snapshots':
        return m.snapshots.map((s) => {
          const summary = Object.fromEntries(
            Object.entries(s.summary ?? {})
              // per-partition summaries (`partitions.<path>`) name partition values; their count counts them
              .filter(([k]) => k !== 'operation' && ((!k.startsWith('partitions.') && k !== 'changed-partition-count') || this.noneHidden(h)))
              .map(([k, v]) => [k, String(v)]),
          );
          return [ts(s['timestamp-ms']), s['snapshot-id'], s['parent-snapshot-id'] ?? null, typeof s.summary?.['operation'] === 'string' ? s.summary['operation'] : null, s['manifest-list'] ?? null, h.rowFiltered ? null : { json: summary }];
        });
      case 'history': {
        const ancestors = new Set<bigint>();
        for (let id = m['current-snapshot-id'] ?? null; id !== null && !ancestors.has(id); id = byId.get(id)?.['parent-snapshot-id'] ?? null) ancestors.add(id);
        return m['snapshot-log'].map((e) => [ts(e['timestamp-ms']), e['snapshot-id'], byId.get(e['snapshot-id'])?.['parent-snapshot-id'] ?? null, ancestors.has(e['snapshot-id'])]);
      }
      case 'refs':
        return Object.entries(m.refs).map(([name, r]) => [name, r.type.toUpperCase(), r['snapshot-id'], r['max-ref-age-ms'] ?? null, r['min-snapshots-to-keep'] ?? null, r['max-snapshot-age-ms'] ?? null]);
      case 'manifests':
        return this.source.manifests.map((r) => {
          const spec = Number(r['partition_spec_id'] ?? 0);
          const specFields = this.specs.get(spec) ?? [];
          const summaries = Array.isArray(r['partitions'])
            ? (r['partitions'] as JsonObject[]).map((p, i) => {
                const f = specFields[i];
                const shown = f !== undefined && this.visible(f['source-id'], h);
                const type = f && f.transform === 'identity' ? this.fields.get(f['source-id'])?.type : 'int';
                const bound = (b: unknown) => (shown && Buffer.isBuffer(b) ? boundText(type, b) : null);
                return { contains_null: shown ? (p['contains_null'] ?? null) : null, contains_nan: shown ? (p['contains_nan'] ?? null) : null, lower_bound: bound(p['lower_bound']), upper_bound: bound(p['upper_bound']) };
              })
            : null;
          const rows = (k: string) => (h.rowFiltered ? null : int(r[k]));
          const files = (k: string, v1: string) => int(r[k] ?? r[v1]);
          return [
            String(r['manifest_path']),
            int(r['manifest_length']),
            spec,
            int(r['added_snapshot_id']),
            files('added_files_count', 'added_data_files_count'),
            rows('added_rows_count'),
            files('existing_files_count', 'existing_data_files_count'),
            rows('existing_rows_count'),
            files('deleted_files_count', 'deleted_data_files_count'),
            rows('deleted_rows_count'),
            h.rowFiltered ? null : { json: summaries },
          ];
        });
      case 'files':
        return this.source.files.map((f) => {
          const spec = Number(f['spec_id'] ?? 0);
          const stat = (k: string, bounds = false) => (h.rowFiltered ? null : this.statMap(f[k], h, bounds));
          const list = (v: unknown): Cell => (Array.isArray(v) ? { array: v as (bigint | number)[] } : null);
          return [
            Number(f['content'] ?? 0),
            this.partitionHidden(spec, f['partition'], h) ? null : String(f['file_path']),
            String(f['file_format']),
            spec,
            h.rowFiltered ? null : { json: this.partition(spec, f['partition'], h) },
            h.rowFiltered ? null : int(f['record_count']),
            h.rowFiltered ? null : int(f['file_size_in_bytes']),
            stat('column_sizes'),
            stat('value_counts'),
            stat('null_value_counts'),
            stat('nan_value_counts'),
            stat('lower_bounds', true),
            stat('upper_bounds', true),
            Buffer.isBuffer(f['key_metadata']) ? { hex: f['key_metadata'].toString('hex') } : null,
            // row group offsets measure the rows too
            h.rowFiltered ? null : list(f['split_offsets']),
            list(f['equality_ids']),
            typeof f['sort_order_id'] === 'number' ? f['sort_order_id'] : null,
          ];
        });
      case 'partitions': {
        // Grouped after hiding: a hidden partition value does not tell how many values there are.
        const groups = new Map<string, { partition: unknown; records: bigint; files: bigint; size: bigint }>();
        for (const f of this.source.files) {
          if (Number(f['content'] ?? 0) !== 0) continue;
          const spec = Number(f['spec_id'] ?? 0);
          const partition = h.rowFiltered ? null : this.partition(spec, f['partition'], h);
          const key = jsonText(partition);
          let g = groups.get(key);
          if (!g) groups.set(key, (g = { partition, records: 0n, files: 0n, size: 0n }));
          g.records += int(f['record_count']) ?? 0n;
          g.files += 1n;
          g.size += int(f['file_size_in_bytes']) ?? 0n;
        }
        return [...groups.values()].map((g) => [{ json: g.partition }, h.rowFiltered ? null : g.records, g.files, h.rowFiltered ? null : g.size]);
      }
    }
  }

  /** Every column of today's schema is seen as stored. */
  private noneHidden(h: MetadataHiding): boolean {
    return [...new Set([...this.fields.values()].map((f) => f.column))].every((c) => h.visibleColumns.has(c));
  }
}

/** The rows of a metadata table as `h` leaves them (exported for tests). */
export function metadataRows(kind: MetadataTableKind, loaded: LoadedTable, source: MetadataSource, h: MetadataHiding): Cell[][] {
  return new Rows(kind, loaded, source).build(h);
}

/**
 * The metadata table `<base>$<kind>` as the planner sees it: decided as the
 * base table (`metadataOf.base`), its rows built by `metadataOf.rows` with
 * what the data gate hides. Its plain scan hides everything (fail closed).
 */
export function metadataCatalogTable(ns: Namespace, kind: MetadataTableKind, base: CatalogTable, loaded: LoadedTable, source: MetadataSource | SqlError): CatalogTable {
  const columns = METADATA_COLUMNS[kind];
  const name = `${base.name}$${kind}`;
  const rows = (h: MetadataHiding): PgNode => {
    if (source instanceof SqlError) throw source;
    const built = metadataRows(kind, loaded, source, h);
    if (built.length > MAX_METADATA_ROWS) throw tooMany(name);
    return rowsSelect(columns, built);
  };
  // What resolution puts in the statement until the data gate replaces it; never run as it is.
  const placeholder = parseStatements(`SELECT * FROM lg_metadata_table(${quote(name)})`)[0]!;
  const scan = (placeholder.node['SelectStmt']!['fromClause'] as PgNode[])[0]!;
  return {
    schema: ns.join('.'),
    name,
    columns,
    resource: base.resource,
    scan: () => structuredClone(scan),
    snapshotId: base.snapshotId ?? null,
    metadataOf: { base, rows },
  };
}
