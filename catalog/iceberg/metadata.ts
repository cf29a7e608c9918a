/**
 * Iceberg table and view metadata (format/spec.md; the REST catalog's
 * TableMetadata and ViewMetadata), validated with zod at the boundary, and
 * what the gateway derives from it: the snapshot a query reads, its columns
 * as DuckDB's iceberg_scan returns them (name, type, field id), and the
 * column tags of the `sqe.column-tags` property.
 */
import { z } from 'zod';
import type { CatalogColumn } from '../../sql/catalogView.js';

/** A 64-bit id: parsed losslessly (json.ts), kept as bigint. */
const Id64 = z.union([z.number().int(), z.bigint()]).transform((v) => BigInt(v));

export type IcebergType = string | StructType | ListType | MapType;
export interface NestedField {
  id: number;
  name: string;
  type: IcebergType;
  required: boolean;
  doc?: string | undefined;
}
export interface StructType {
  type: 'struct';
  fields: NestedField[];
}
export interface ListType {
  type: 'list';
  'element-id': number;
  element: IcebergType;
  'element-required': boolean;
}
export interface MapType {
  type: 'map';
  'key-id': number;
  key: IcebergType;
  'value-id': number;
  value: IcebergType;
  'value-required': boolean;
}

const TypeSchema: z.ZodType<IcebergType> = z.lazy(() =>
  z.union([
    z.string(),
    z.object({ type: z.literal('struct'), fields: z.array(FieldSchema) }),
    z.object({ type: z.literal('list'), 'element-id': z.number().int(), element: TypeSchema, 'element-required': z.boolean() }),
    z.object({
      type: z.literal('map'),
      'key-id': z.number().int(),
      key: TypeSchema,
      'value-id': z.number().int(),
      value: TypeSchema,
      'value-required': z.boolean(),
    }),
  ]),
);
const FieldSchema: z.ZodType<NestedField> = z.lazy(() =>
  z.object({ id: z.number().int(), name: z.string(), type: TypeSchema, required: z.boolean(), doc: z.string().optional() }),
);

export const SchemaSchema = z.object({
  type: z.literal('struct').default('struct'),
  'schema-id': z.number().int().default(0),
  fields: z.array(FieldSchema),
});
export type IcebergSchema = z.output<typeof SchemaSchema>;

const SnapshotSchema = z.object({
  'snapshot-id': Id64,
  'parent-snapshot-id': Id64.nullish(),
  'sequence-number': z.number().int().optional(),
  'timestamp-ms': z.number().int(),
  'manifest-list': z.string().optional(),
  'schema-id': z.number().int().optional(),
});
export type IcebergSnapshot = z.output<typeof SnapshotSchema>;

export const TableMetadataSchema = z.object({
  'format-version': z.number().int().min(1).max(3),
  'table-uuid': z.string().optional(),
  location: z.string(),
  'last-updated-ms': z.number().int().optional(),
  properties: z.record(z.string(), z.string()).default({}),
  schemas: z.array(SchemaSchema).optional(),
  'current-schema-id': z.number().int().optional(),
  /** format v1 */
  schema: SchemaSchema.optional(),
  snapshots: z.array(SnapshotSchema).default([]),
  /** absent, null or -1 (older writers) when the table has no snapshot */
  'current-snapshot-id': Id64.nullish(),
  refs: z.record(z.string(), z.object({ 'snapshot-id': Id64, type: z.enum(['branch', 'tag']) })).default({}),
  'snapshot-log': z.array(z.object({ 'snapshot-id': Id64, 'timestamp-ms': z.number().int() })).default([]),
});
export type TableMetadata = z.output<typeof TableMetadataSchema>;

export const ViewMetadataSchema = z.object({
  'view-uuid': z.string().optional(),
  'format-version': z.number().int(),
  location: z.string().optional(),
  'current-version-id': z.number().int(),
  versions: z.array(
    z.object({
      'version-id': z.number().int(),
      'schema-id': z.number().int(),
      'timestamp-ms': z.number().int().optional(),
      representations: z.array(z.object({ type: z.string(), sql: z.string().optional(), dialect: z.string().optional() })),
      'default-catalog': z.string().nullish(),
      'default-namespace': z.array(z.string()).default([]),
    }),
  ),
  schemas: z.array(SchemaSchema),
  properties: z.record(z.string(), z.string()).default({}),
});
export type ViewMetadata = z.output<typeof ViewMetadataSchema>;

export class MetadataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MetadataError';
  }
}

const PRIMITIVES: ReadonlyMap<string, string> = new Map(Object.entries({
  boolean: 'BOOLEAN',
  int: 'INTEGER',
  long: 'BIGINT',
  float: 'FLOAT',
  double: 'DOUBLE',
  date: 'DATE',
  time: 'TIME',
  timestamp: 'TIMESTAMP',
  timestamptz: 'TIMESTAMP WITH TIME ZONE',
  timestamp_ns: 'TIMESTAMP_NS',
  timestamptz_ns: 'TIMESTAMP WITH TIME ZONE',
  string: 'VARCHAR',
  uuid: 'UUID',
  binary: 'BLOB',
}));

/** DuckDB prints every STRUCT field name quoted. */
const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The DuckDB type iceberg_scan gives a column of this Iceberg type, spelled as DuckDB prints it. */
export function duckType(t: IcebergType): string {
  if (typeof t === 'string') {
    const p = PRIMITIVES.get(t);
    if (p) return p;
    const dec = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(t);
    if (dec) return `DECIMAL(${dec[1]},${dec[2]})`;
    if (/^fixed\[\d+\]$/.test(t)) return 'BLOB';
    throw new MetadataError(`unsupported Iceberg type ${t}`);
  }
  switch (t.type) {
    case 'struct':
      return `STRUCT(${t.fields.map((f) => `${ident(f.name)} ${duckType(f.type)}`).join(', ')})`;
    case 'list':
      return `${duckType(t.element)}[]`;
    case 'map':
      return `MAP(${duckType(t.key)}, ${duckType(t.value)})`;
  }
}

export function schemaById(meta: TableMetadata, id: number | undefined): IcebergSchema {
  if (meta.schemas && meta.schemas.length > 0) {
    const wanted = id ?? meta['current-schema-id'];
    const s = meta.schemas.find((x) => x['schema-id'] === wanted);
    if (s) return s;
    throw new MetadataError(`schema ${String(wanted)} is not in the table metadata`);
  }
  if (meta.schema) return meta.schema;
  throw new MetadataError('the table metadata has no schema');
}

/**
 * The columns of a schema. `pgTypes` (pgTypesByFieldId): the string fields
 * written as PostgreSQL json or jsonb, presented as such (DuckDB's JSON).
 */
export function columnsOf(schema: IcebergSchema, pgTypes?: ReadonlyMap<number, 'json' | 'jsonb'>): CatalogColumn[] {
  return schema.fields.map((f) => {
    const pgType = f.type === 'string' ? pgTypes?.get(f.id) : undefined;
    return {
      name: f.name,
      duckType: pgType ? 'JSON' : duckType(f.type),
      nullable: !f.required,
      fieldId: f.id,
      ...(f.doc ? { comment: f.doc } : {}),
      ...(pgType ? { pgType } : {}),
    };
  });
}

/**
 * The columns of a schema the table was read with, each decided as the
 * current schema's column with the same field id (policies name today's
 * columns): `policyName` is set where the names differ, null where the
 * field is gone from the current schema (dropped).
 */
export function columnsDecidedByCurrent(read: IcebergSchema, current: IcebergSchema, pgTypes?: ReadonlyMap<number, 'json' | 'jsonb'>): CatalogColumn[] {
  const currentName = new Map(current.fields.map((f) => [f.id, f.name]));
  return columnsOf(read, pgTypes).map((c) => {
    const now = currentName.get(c.fieldId!);
    if (now === c.name) return c;
    return { ...c, policyName: now ?? null };
  });
}

/** Which snapshot a reference reads: the current one, or one chosen by time travel. */
export type SnapshotSelector =
  | { kind: 'current' }
  | { kind: 'id'; id: bigint }
  | { kind: 'ref'; name: string }
  | { kind: 'time'; epochMs: number };

export interface ChosenSnapshot {
  /** null: the table has no snapshot yet (reads as empty, with the current schema) */
  snapshotId: bigint | null;
  schema: IcebergSchema;
}

/**
 * The snapshot and schema to read. The current snapshot is read with the
 * table's current schema; a time travel reads the snapshot with the schema it
 * was written with, as Iceberg's readers do. An unknown id, ref or a time
 * before the first snapshot is an error the user can act on.
 */
export function chooseSnapshot(meta: TableMetadata, selector: SnapshotSelector): ChosenSnapshot {
  const byId = (id: bigint) => meta.snapshots.find((s) => s['snapshot-id'] === id);
  const historical = (id: bigint): ChosenSnapshot => {
    const snap = byId(id);
    if (!snap) throw new MetadataError(`snapshot ${id} does not exist`);
    return { snapshotId: id, schema: schemaById(meta, snap['schema-id'] ?? meta['current-schema-id']) };
  };
  switch (selector.kind) {
    case 'current': {
      const main = Object.hasOwn(meta.refs, 'main') ? meta.refs['main'] : undefined;
      const cur = meta['current-snapshot-id'] ?? main?.['snapshot-id'] ?? null;
      const id = cur === null || cur === -1n ? null : cur;
      return { snapshotId: id, schema: schemaById(meta, undefined) };
    }
    case 'id':
      return historical(selector.id);
    case 'ref': {
      // A ref name comes from the user's SQL: only the table's own refs, never Object.prototype's members.
      const ref = Object.hasOwn(meta.refs, selector.name) ? meta.refs[selector.name] : undefined;
      if (!ref) throw new MetadataError(`branch or tag "${selector.name}" does not exist`);
      return historical(ref['snapshot-id']);
    }
    case 'time': {
      // The snapshot that was current at that time: the last snapshot-log entry at or before it.
      const log = meta['snapshot-log'].length > 0 ? meta['snapshot-log'] : meta.snapshots;
      let found: bigint | null = null;
      for (const e of log) if (e['timestamp-ms'] <= selector.epochMs) found = e['snapshot-id'];
      if (found === null) throw new MetadataError(`the table has no snapshot at or before ${new Date(selector.epochMs).toISOString()}`);
      return historical(found);
    }
  }
}

/** The property SQE and lakegate read column tags from: JSON `{"column": ["TAG", …]}`. */
export const COLUMN_TAGS_PROPERTY = 'sqe.column-tags';

/**
 * Column tags keyed by field id. The property names columns; each name is
 * read against the newest schema holding a column of that name (the current
 * schema first, then older ones), so a column renamed after its tags were set
 * keeps them under its new name. (A name dropped by a rename and later given
 * to a new column is read as the new column: the property then names it.)
 * undefined: the table has no such property; null: it cannot be read (the
 * data gate fails closed).
 */
export function columnTagsByFieldId(meta: TableMetadata): Map<number, string[]> | null | undefined {
  const raw = meta.properties[COLUMN_TAGS_PROPERTY];
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  const shape = z.record(z.string(), z.array(z.string())).safeParse(parsed);
  if (!shape.success) return null;
  const fieldOf = fieldByName(meta);
  const out = new Map<number, string[]>();
  // The parsed JSON's own entries, not zod's copy: the copy loses a key named `__proto__` (a column may be called that).
  for (const [name, tags] of Object.entries(parsed as Record<string, string[]>)) {
    const id = fieldOf(name);
    // A name no schema ever had cannot be placed: the tags are unreadable, not absent.
    if (id === undefined) return null;
    out.set(id, [...(out.get(id) ?? []), ...tags]);
  }
  return out;
}

/**
 * A column name of a property (tags, kept types) as a field id: the newest
 * schema holding a column of that name, the current schema first.
 */
function fieldByName(meta: TableMetadata): (name: string) => number | undefined {
  const schemas = meta.schemas && meta.schemas.length > 0 ? [...meta.schemas] : meta.schema ? [meta.schema] : [];
  const current = meta['current-schema-id'];
  schemas.sort((a, b) => (a['schema-id'] === current ? -1 : b['schema-id'] === current ? 1 : b['schema-id'] - a['schema-id']));
  return (name) => schemas.map((s) => s.fields.find((f) => f.name === name)).find((f) => f !== undefined)?.id;
}

/** Where lakegate keeps the PostgreSQL type of a column Iceberg holds as another: JSON `{"column": "jsonb"}`. */
export const PG_TYPES_PROPERTY = 'lakegate.pg-types';

/**
 * The json and jsonb columns of a table, by field id (names placed as for
 * tags). Only a type, never a policy input: an entry that cannot be read
 * leaves its column a string.
 */
export function pgTypesByFieldId(meta: TableMetadata): Map<number, 'json' | 'jsonb'> {
  const out = new Map<number, 'json' | 'jsonb'>();
  const raw = Object.hasOwn(meta.properties, PG_TYPES_PROPERTY) ? meta.properties[PG_TYPES_PROPERTY] : undefined;
  if (raw === undefined) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return out;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return out;
  const fieldOf = fieldByName(meta);
  for (const [name, type] of Object.entries(parsed as Record<string, unknown>)) {
    const id = fieldOf(name);
    if (id !== undefined && (type === 'json' || type === 'jsonb')) out.set(id, type);
  }
  return out;
}

/**
 * Tags by the column names of a schema: the current one, whose names the
 * data gate decides every snapshot's columns by. A null-prototype object, so
 * a column called `constructor` or `__proto__` is only ever its own key.
 */
export function columnTagsFor(meta: TableMetadata, schema: IcebergSchema): Record<string, string[]> | null | undefined {
  const byId = columnTagsByFieldId(meta);
  if (byId === undefined || byId === null) return byId;
  const out: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const f of schema.fields) {
    const tags = byId.get(f.id);
    if (tags) out[f.name] = tags;
  }
  return out;
}
