/**
 * SET TAG's projection into Ranger's tag store (`project-tags`): the column
 * as a service resource of the data gate's service ({database, table,
 * column}) mapped to a tag of that type, so Ranger plugins that read tags from
 * Ranger (not from the table's property) see it too. In embedded mode the
 * tag store is the data gate's `<service>_tag.json` (ServiceTags), rewritten
 * whole with tagVersion bumped.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Json } from './merge.js';

export interface TagProjection {
  describe(): string;
  /** Adds (or removes) the tag on the column; throws when the tag store refuses or cannot be written. */
  project(column: { database: string; table: string; column: string }, tag: string, add: boolean): Promise<void>;
}

export class LocalServiceTagsFile implements TagProjection {
  constructor(
    private readonly folder: string,
    private readonly serviceName: string,
  ) {}

  private get file(): string {
    return join(this.folder, `${this.serviceName}_tag.json`);
  }

  describe(): string {
    return `the tag file ${this.file}`;
  }

  async project(c: { database: string; table: string; column: string }, tag: string, add: boolean): Promise<void> {
    let doc: Json;
    try {
      doc = JSON.parse(await readFile(this.file, 'utf8')) as Json;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read ${this.file}: ${(e as Error).message}`);
      doc = { op: 'add_or_update', serviceName: this.serviceName, tagVersion: 0, tagDefinitions: {}, tags: {}, serviceResources: [], resourceToTagIds: {} };
    }
    const tags = (doc['tags'] ?? {}) as Record<string, { id?: number; type: string; attributes?: Record<string, string> }>;
    const resources = (doc['serviceResources'] ?? []) as { id: number; resourceElements: Record<string, { values: string[] }> }[];
    const map = (doc['resourceToTagIds'] ?? {}) as Record<string, number[]>;
    const same = (r: (typeof resources)[number]) =>
      r.resourceElements['database']?.values.join() === c.database && r.resourceElements['table']?.values.join() === c.table && r.resourceElements['column']?.values.join() === c.column && Object.keys(r.resourceElements).length === 3;
    let resource = resources.find(same);
    let tagId = Object.entries(tags).find(([, t]) => t.type === tag && Object.keys(t.attributes ?? {}).length === 0)?.[0];
    if (add) {
      if (!resource) {
        resource = { id: Math.max(0, ...resources.map((r) => Number(r.id))) + 1, resourceElements: { database: { values: [c.database] }, table: { values: [c.table] }, column: { values: [c.column] } } };
        resources.push(resource);
      }
      if (tagId === undefined) {
        tagId = String(Math.max(0, ...Object.keys(tags).map(Number)) + 1);
        tags[tagId] = { id: Number(tagId), type: tag, attributes: {} };
      }
      const ids = map[String(resource.id)] ?? [];
      if (!ids.includes(Number(tagId))) map[String(resource.id)] = [...ids, Number(tagId)];
    } else if (resource && tagId !== undefined) {
      map[String(resource.id)] = (map[String(resource.id)] ?? []).filter((id) => id !== Number(tagId));
    }
    doc['tags'] = tags;
    doc['serviceResources'] = resources;
    doc['resourceToTagIds'] = map;
    doc['tagVersion'] = ((doc['tagVersion'] as number | undefined) ?? 0) + 1;
    doc['tagUpdateTime'] = Date.now();
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(doc, null, 2));
    await rename(tmp, this.file);
  }
}
