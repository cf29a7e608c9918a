/**
 * When a write's Iceberg files came to be, read from the file system: the
 * table's folder (made when the table is created through the catalog), the
 * first and last Parquet data file (DuckDB's writer), the manifests (DuckDB)
 * and the metadata files (the catalog's commit). Together with the client's
 * start and end of the statement they split a CREATE TABLE AS into phases
 * measured by the writers' own clocks, with nothing added to the writer.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface WriteFiles {
  location: string;
  dataFiles: number;
  dataBytes: number;
  /** epoch ms */
  folderBorn: number;
  firstDataBorn: number;
  lastDataWritten: number;
  lastManifestWritten: number;
  lastMetadataBorn: number;
  metadataFiles: number;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/** The newest table folder `<name>-<suffix>` under a namespace's folder born at or after `since` (epoch ms), and its files' times. */
export function writeFiles(namespaceDir: string, name: string, since: number): WriteFiles | null {
  const folders = readdirSync(namespaceDir)
    .filter((f) => f.startsWith(`${name}-`) && /^[0-9a-f]+$/.test(f.slice(name.length + 1)))
    .map((f) => ({ path: join(namespaceDir, f), born: statSync(join(namespaceDir, f)).birthtimeMs }))
    .filter((f) => f.born >= since - 1000)
    .sort((a, b) => b.born - a.born);
  const folder = folders[0];
  if (!folder) return null;
  const files = walk(folder.path).map((p) => ({ p, s: statSync(p) }));
  const data = files.filter((f) => f.p.endsWith('.parquet'));
  const manifests = files.filter((f) => f.p.endsWith('.avro'));
  const metadata = files.filter((f) => f.p.endsWith('.metadata.json'));
  if (data.length === 0 || metadata.length === 0) return null;
  const max = (xs: number[]) => Math.max(...xs);
  const min = (xs: number[]) => Math.min(...xs);
  return {
    location: folder.path,
    dataFiles: data.length,
    dataBytes: data.reduce((s, f) => s + f.s.size, 0),
    folderBorn: folder.born,
    firstDataBorn: min(data.map((f) => f.s.birthtimeMs)),
    lastDataWritten: max(data.map((f) => f.s.mtimeMs)),
    lastManifestWritten: manifests.length ? max(manifests.map((f) => f.s.mtimeMs)) : NaN,
    lastMetadataBorn: max(metadata.map((f) => f.s.birthtimeMs)),
    metadataFiles: metadata.length,
  };
}

/** Phases of one CREATE TABLE AS, in ms, from the statement's start and end (epoch ms) and its files. */
export interface WritePhases {
  /** start → first data file: planning, the type probe, ATTACH, the create through the catalog, the scan starting */
  beforeData: number;
  /** first data file → last data file written: the source read and the Parquet written (streamed together) */
  data: number;
  /** last data file → last metadata file: manifests and the catalog's commit */
  commit: number;
  /** last metadata file → the statement's end: what follows the commit, the reply */
  afterCommit: number;
}

export function phasesOf(start: number, end: number, f: WriteFiles): WritePhases {
  return {
    beforeData: f.firstDataBorn - start,
    data: f.lastDataWritten - f.firstDataBorn,
    commit: f.lastMetadataBorn - f.lastDataWritten,
    afterCommit: end - f.lastMetadataBorn,
  };
}
