/**
 * A table's files as a catalog handles them on a local warehouse: the next
 * metadata file (`<location>/metadata/<version>-<uuid>.metadata.json`, the
 * name pyiceberg and Iceberg Java give it, written once, never overwritten),
 * and the files a snapshot or a whole table references, read from its
 * manifest lists and manifests (Avro), so that a purge or the clean-up of a
 * failed commit deletes exactly those and only under the table's location.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import avro from 'avsc';
import { CatalogError, type JsonObject } from './api.js';
import { parseIcebergJson, stringifyIcebergJson } from './json.js';

/** `file:///x`, `file:/x` or `/x` → a local path; anything else is not a local file. */
export function localFile(location: string): string | null {
  if (location.startsWith('file:')) return fileURLToPath(location.startsWith('file:///') ? location : location.replace(/^file:\/*/, 'file:///'));
  if (location.startsWith('/')) return location;
  return null;
}

function mustBeLocal(location: string): string {
  const path = localFile(location);
  if (path === null) throw new CatalogError('unsupported', `the embedded catalog writes local files only, not ${location}`, 406, 'UnsupportedOperationException');
  return path;
}

/** True when `file` lies strictly inside the directory `dir` (both local). */
export function isUnder(file: string, dir: string): boolean {
  const f = localFile(file);
  const d = localFile(dir);
  if (f === null || d === null) return false;
  const base = d.replace(/\/+$/, '');
  return f.startsWith(`${base}/`) && !f.slice(base.length).split('/').includes('..');
}

/** Where a table's next metadata file goes: the version after `previous`, in the same spelling as the table's location. */
export function nextMetadataLocation(tableLocation: string, previous: string | null): string {
  const version = previous === null ? 0 : Number(/^(\d+)-/.exec(basename(mustBeLocal(previous)))?.[1] ?? '-1') + 1;
  return `${tableLocation.replace(/\/+$/, '')}/metadata/${String(version).padStart(5, '0')}-${randomUUID()}.metadata.json`;
}

/** Writes a metadata file that must not exist yet (a second writer of the same name fails instead of overwriting). */
export async function writeMetadataFile(location: string, metadata: JsonObject): Promise<void> {
  const path = mustBeLocal(location);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, stringifyIcebergJson(metadata), { flag: 'wx' });
}

export async function readMetadataFile(location: string): Promise<JsonObject> {
  let text: string;
  try {
    text = await readFile(mustBeLocal(location), 'utf8');
  } catch (e) {
    if (e instanceof CatalogError) throw e;
    throw new CatalogError('unavailable', `cannot read ${location}: ${(e as Error).message}`);
  }
  try {
    return parseIcebergJson(text) as JsonObject;
  } catch (e) {
    throw new CatalogError('bad-response', `${location} is not JSON: ${(e as Error).message}`);
  }
}

// ------------------------------------------------------------ manifests

/** Avro `long` as bigint: snapshot ids use all 64 bits. */
const LongAsBigInt = avro.types.LongType.__with({
  fromBuffer: (buf: Buffer) => buf.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(BigInt(n));
    return buf;
  },
  fromJSON: (v: number | string) => BigInt(v),
  toJSON: (n: bigint) => Number(n),
  isValid: (n: unknown) => typeof n === 'bigint',
  compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
});

/** Avro's zig-zag varint long at `pos`: its value and the position after it. */
function readLong(buf: Buffer, pos: number): [number, number] {
  let n = 0n;
  let shift = 0n;
  for (;;) {
    if (pos >= buf.length) throw new Error('truncated Avro file');
    const b = buf[pos++]!;
    n |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) break;
    shift += 7n;
    if (shift > 63n) throw new Error('malformed Avro long');
  }
  const v = (n >> 1n) ^ -(n & 1n);
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('Avro length out of range');
  return [Number(v), pos];
}

function readBytes(buf: Buffer, pos: number): [Buffer, number] {
  const [len, at] = readLong(buf, pos);
  if (len < 0 || at + len > buf.length) throw new Error('truncated Avro file');
  return [buf.subarray(at, at + len), at + len];
}

/**
 * Every record of an Avro object container file (codecs null and deflate, what
 * DuckDB, pyiceberg and Java write by default), read synchronously: a file that
 * is not what it should be is an error here, never an exception loose in a
 * stream. Longs are bigint (snapshot ids use all 64 bits).
 */
export async function avroRecords(location: string): Promise<JsonObject[]> {
  const buf = await readFile(mustBeLocal(location));
  if (buf.subarray(0, 4).toString('latin1') !== 'Obj\x01') throw new Error(`${location} is not an Avro container file`);
  const meta = new Map<string, Buffer>();
  let pos = 4;
  for (;;) {
    let count: number;
    [count, pos] = readLong(buf, pos);
    if (count === 0) break;
    if (count < 0) [, pos] = readLong(buf, pos); // a negative count carries the block's byte size
    for (let i = 0; i < Math.abs(count); i++) {
      let k: Buffer;
      let v: Buffer;
      [k, pos] = readBytes(buf, pos);
      [v, pos] = readBytes(buf, pos);
      meta.set(k.toString('utf8'), v);
    }
  }
  const sync = buf.subarray(pos, pos + 16);
  pos += 16;
  const codec = meta.get('avro.codec')?.toString('utf8') ?? 'null';
  if (codec !== 'null' && codec !== 'deflate') throw new Error(`${location}: Avro codec ${codec} is not read here`);
  const schema = meta.get('avro.schema');
  if (!schema) throw new Error(`${location} has no Avro schema`);
  // Every long, however the writer spelled it ("long" or {"type": "long", …}), is read as bigint.
  const isLong = (s: unknown) => s === 'long' || (typeof s === 'object' && s !== null && (s as { type?: unknown }).type === 'long' && !('logicalType' in s));
  const type = avro.Type.forSchema(JSON.parse(schema.toString('utf8')) as avro.Schema, {
    registry: { long: LongAsBigInt } as unknown as avro.ForSchemaOptions['registry'],
    typeHook: (s: unknown) => (isLong(s) ? LongAsBigInt : undefined),
  } as unknown as Partial<avro.ForSchemaOptions>);
  const out: JsonObject[] = [];
  while (pos < buf.length) {
    let count: number;
    let block: Buffer;
    [count, pos] = readLong(buf, pos);
    [block, pos] = readBytes(buf, pos);
    if (!buf.subarray(pos, pos + 16).equals(sync)) throw new Error(`${location}: Avro block without its sync marker`);
    pos += 16;
    const data = codec === 'deflate' ? inflateRawSync(block) : block;
    let at = 0;
    for (let i = 0; i < count; i++) {
      const r = type.decode(data, at);
      if (r.offset < 0) throw new Error(`${location}: truncated Avro record`);
      out.push(r.value as JsonObject);
      at = r.offset;
    }
  }
  return out;
}

export interface ManifestRef {
  path: string;
  /** the snapshot that wrote the manifest */
  addedSnapshotId: bigint | null;
}

export async function manifestsOf(manifestList: string): Promise<ManifestRef[]> {
  return (await avroRecords(manifestList)).map((r) => ({
    path: String(r['manifest_path']),
    addedSnapshotId: typeof r['added_snapshot_id'] === 'bigint' ? r['added_snapshot_id'] : null,
  }));
}

export interface ManifestEntry {
  /** 0 EXISTING, 1 ADDED, 2 DELETED */
  status: number;
  snapshotId: bigint | null;
  filePath: string;
}

export async function entriesOf(manifest: string): Promise<ManifestEntry[]> {
  return (await avroRecords(manifest)).map((r) => ({
    status: Number(r['status']),
    snapshotId: typeof r['snapshot_id'] === 'bigint' ? r['snapshot_id'] : null,
    filePath: String((r['data_file'] as JsonObject)['file_path']),
  }));
}

/**
 * The files one snapshot wrote: its manifest list, the manifests it added and
 * the data and delete files those manifests add (status ADDED under this
 * snapshot; an entry without a snapshot id inherits the manifest's).
 */
export async function filesWrittenBy(snapshot: JsonObject): Promise<string[]> {
  const list = snapshot['manifest-list'];
  if (typeof list !== 'string') return [];
  const id = BigInt(snapshot['snapshot-id'] as bigint | number);
  const out = [list];
  let manifests: ManifestRef[];
  try {
    manifests = await manifestsOf(list);
  } catch {
    return out;
  }
  for (const m of manifests) {
    if (m.addedSnapshotId !== id) continue;
    out.push(m.path);
    try {
      for (const e of await entriesOf(m.path)) if (e.status === 1 && (e.snapshotId === null || e.snapshotId === id)) out.push(e.filePath);
    } catch {
      // an unreadable manifest: its data files are not known, so none is touched
    }
  }
  return out;
}

/**
 * Every file a table's metadata references (what Iceberg's dropTableData
 * deletes): every snapshot's manifest list, manifests and their data and
 * delete files, statistics files, and the metadata files of its log.
 * `unreadable` counts manifests that could not be read (their files stay).
 */
export async function filesOfTable(metadata: JsonObject, metadataLocation: string): Promise<{ files: string[]; unreadable: number }> {
  const files = new Set<string>([metadataLocation]);
  let unreadable = 0;
  for (const e of (metadata['metadata-log'] as JsonObject[] | undefined) ?? []) files.add(String(e['metadata-file']));
  for (const key of ['statistics', 'partition-statistics'])
    for (const s of (metadata[key] as JsonObject[] | undefined) ?? []) if (typeof s['statistics-path'] === 'string') files.add(s['statistics-path']);
  const manifests = new Set<string>();
  for (const snap of (metadata['snapshots'] as JsonObject[] | undefined) ?? []) {
    const list = snap['manifest-list'];
    if (typeof list !== 'string') continue;
    files.add(list);
    try {
      for (const m of await manifestsOf(list)) manifests.add(m.path);
    } catch {
      unreadable++;
    }
  }
  for (const m of manifests) {
    files.add(m);
    try {
      for (const e of await entriesOf(m)) files.add(e.filePath);
    } catch {
      unreadable++;
    }
  }
  return { files: [...files], unreadable };
}

/**
 * Deletes the files that lie under `dir` (others are left: a catalog deletes
 * only what it owns), then the directories under `dir` left empty, `dir` too.
 * Answers how many files went.
 */
export async function removeFilesUnder(files: readonly string[], dir: string): Promise<number> {
  let removed = 0;
  for (const f of new Set(files)) {
    if (!isUnder(f, dir)) continue;
    try {
      await rm(localFile(f)!, { force: true });
      removed++;
    } catch {
      // already gone or not removable: nothing more to do here
    }
  }
  await removeEmptyDirs(localFile(dir)!);
  return removed;
}

async function removeEmptyDirs(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const n of names) await removeEmptyDirs(join(dir, n));
  try {
    await rmdir(dir);
  } catch {
    // not empty (or not a directory): kept
  }
}
