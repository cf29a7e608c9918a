/**
 * Iceberg's manifest and manifest-list Avro files (format/spec.md, "Manifests",
 * "Manifest Lists", format version 2), written with avsc for the tables
 * lakegate creates itself (the demo). Every field carries its Iceberg
 * `field-id`, which readers resolve fields by. Only the fields a reader needs
 * are written: optional statistics are left out, which the spec allows.
 */
import avro from 'avsc';

/** Avro `long` as bigint: snapshot ids use all 64 bits (avsc's default long is a double). */
const LongAsBigInt = avro.types.LongType.__with({
  fromBuffer: (buf: Buffer) => buf.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(BigInt(n));
    return buf;
  },
  fromJSON: (v: number | string) => BigInt(v),
  toJSON: (n: bigint) => Number(n),
  isValid: (n: unknown) => typeof n === 'bigint' || (typeof n === 'number' && Number.isInteger(n)),
  compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
});

const field = (name: string, id: number, type: unknown, nullable = false) =>
  nullable ? { name, type: ['null', type], default: null, 'field-id': id } : { name, type, 'field-id': id };

/** Iceberg's int-keyed maps in Avro: an array of key/value records. */
const intMap = (keyId: number, valueId: number, value: string) => ({
  type: 'array',
  logicalType: 'map',
  items: {
    type: 'record',
    name: `k${keyId}_v${valueId}`,
    fields: [field('key', keyId, 'int'), field('value', valueId, value)],
  },
});
const list = (elementId: number, element: string) => ({ type: 'array', items: element, 'element-id': elementId });

const MANIFEST_ENTRY = {
  type: 'record',
  name: 'manifest_entry',
  fields: [
    field('status', 0, 'int'),
    field('snapshot_id', 1, 'long', true),
    field('sequence_number', 3, 'long', true),
    field('file_sequence_number', 4, 'long', true),
    field('data_file', 2, {
      type: 'record',
      name: 'r2',
      fields: [
        field('content', 134, 'int'),
        field('file_path', 100, 'string'),
        field('file_format', 101, 'string'),
        // An unpartitioned table's partition tuple is an empty record.
        field('partition', 102, { type: 'record', name: 'r102', fields: [] }),
        field('record_count', 103, 'long'),
        field('file_size_in_bytes', 104, 'long'),
        // Statistics are optional; readers resolve every field by id, so they are present and null.
        field('column_sizes', 108, intMap(117, 118, 'long'), true),
        field('value_counts', 109, intMap(119, 120, 'long'), true),
        field('null_value_counts', 110, intMap(121, 122, 'long'), true),
        field('nan_value_counts', 137, intMap(138, 139, 'long'), true),
        field('lower_bounds', 125, intMap(126, 127, 'bytes'), true),
        field('upper_bounds', 128, intMap(129, 130, 'bytes'), true),
        field('key_metadata', 131, 'bytes', true),
        field('split_offsets', 132, list(133, 'long'), true),
        field('equality_ids', 135, list(136, 'int'), true),
        field('sort_order_id', 140, 'int', true),
      ],
    }),
  ],
};

const MANIFEST_FILE = {
  type: 'record',
  name: 'manifest_file',
  fields: [
    field('manifest_path', 500, 'string'),
    field('manifest_length', 501, 'long'),
    field('partition_spec_id', 502, 'int'),
    field('content', 517, 'int'),
    field('sequence_number', 515, 'long'),
    field('min_sequence_number', 516, 'long'),
    field('added_snapshot_id', 503, 'long'),
    field('added_files_count', 504, 'int'),
    field('existing_files_count', 505, 'int'),
    field('deleted_files_count', 506, 'int'),
    field('added_rows_count', 512, 'long'),
    field('existing_rows_count', 513, 'long'),
    field('deleted_rows_count', 514, 'long'),
    field(
      'partitions',
      507,
      {
        type: 'array',
        'element-id': 508,
        items: {
          type: 'record',
          name: 'r508',
          fields: [
            field('contains_null', 509, 'boolean'),
            field('contains_nan', 518, 'boolean', true),
            field('lower_bound', 510, 'bytes', true),
            field('upper_bound', 511, 'bytes', true),
          ],
        },
      },
      true,
    ),
    field('key_metadata', 519, 'bytes', true),
  ],
};

const registry = () => ({ long: LongAsBigInt });
const entryType = avro.Type.forSchema(MANIFEST_ENTRY as avro.Schema, { registry: registry() });
const fileType = avro.Type.forSchema(MANIFEST_FILE as avro.Schema, { registry: registry() });

/** An Avro object container file in memory. */
function container(type: avro.Type, schema: object, records: unknown[], metadata: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const meta: Record<string, Buffer> = {};
    for (const [k, v] of Object.entries(metadata)) meta[k] = Buffer.from(v, 'utf8');
    // `metadata` is a BlockEncoder option its type declarations leave out.
    const options = { codec: 'null', metadata: meta, writeHeader: 'auto' } as unknown as ConstructorParameters<typeof avro.streams.BlockEncoder>[1];
    const encoder = new avro.streams.BlockEncoder(type, options);
    // The header must carry the schema as written, with its field ids (avsc's own export drops field
    // attributes). avsc writes `_schema` verbatim when set; it is set before the first record.
    const internal = encoder as unknown as { _schema?: object };
    if (!('_schema' in internal)) throw new Error('avsc BlockEncoder no longer keeps the header schema in _schema');
    internal._schema = schema;
    const chunks: Buffer[] = [];
    encoder.on('data', (c: Buffer) => chunks.push(c));
    encoder.on('end', () => resolve(Buffer.concat(chunks)));
    encoder.on('error', reject);
    for (const r of records) encoder.write(r);
    encoder.end();
  });
}

export interface DataFileEntry {
  path: string;
  recordCount: bigint;
  sizeInBytes: bigint;
}

/** A data manifest of files added by one snapshot (sequence numbers inherited from the manifest list). */
export function manifestFile(
  files: readonly DataFileEntry[],
  meta: { schemaJson: string; schemaId: number; specJson: string; specId: number; snapshotId: bigint },
): Promise<Buffer> {
  const records = files.map((f) => ({
    status: 1,
    snapshot_id: meta.snapshotId,
    sequence_number: null,
    file_sequence_number: null,
    data_file: {
      content: 0,
      file_path: f.path,
      file_format: 'PARQUET',
      partition: {},
      record_count: f.recordCount,
      file_size_in_bytes: f.sizeInBytes,
      column_sizes: null,
      value_counts: null,
      null_value_counts: null,
      nan_value_counts: null,
      lower_bounds: null,
      upper_bounds: null,
      key_metadata: null,
      split_offsets: null,
      equality_ids: null,
      sort_order_id: null,
    },
  }));
  return container(entryType, MANIFEST_ENTRY, records, {
    schema: meta.schemaJson,
    'schema-id': String(meta.schemaId),
    'partition-spec': meta.specJson,
    'partition-spec-id': String(meta.specId),
    'format-version': '2',
    content: 'data',
  });
}

export interface ManifestListEntry {
  path: string;
  length: bigint;
  specId: number;
  sequenceNumber: bigint;
  snapshotId: bigint;
  addedFiles: number;
  addedRows: bigint;
}

export function manifestList(entries: readonly ManifestListEntry[], meta: { snapshotId: bigint; parentSnapshotId: bigint | null; sequenceNumber: bigint }): Promise<Buffer> {
  const records = entries.map((e) => ({
    manifest_path: e.path,
    manifest_length: e.length,
    partition_spec_id: e.specId,
    content: 0,
    sequence_number: e.sequenceNumber,
    min_sequence_number: e.sequenceNumber,
    added_snapshot_id: e.snapshotId,
    added_files_count: e.addedFiles,
    existing_files_count: 0,
    deleted_files_count: 0,
    added_rows_count: e.addedRows,
    existing_rows_count: 0n,
    deleted_rows_count: 0n,
    partitions: [],
    key_metadata: null,
  }));
  return container(fileType, MANIFEST_FILE, records, {
    'snapshot-id': String(meta.snapshotId),
    'parent-snapshot-id': meta.parentSnapshotId === null ? 'null' : String(meta.parentSnapshotId),
    'sequence-number': String(meta.sequenceNumber),
    'format-version': '2',
  });
}
