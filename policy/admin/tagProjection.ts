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

/** The ServiceTags document with the column's tag added or taken away (a copy; tagVersion bumped). */
export function withColumnTag(from: Json, serviceName: string, c: { database: string; table: string; column: string }, tag: string, add: boolean): Json {
  const doc: Json = structuredClone(from);
  const tags = (doc['tags'] ?? {}) as Record<string, { id?: number; type: string; attributes?: Record<string, string> }>;
  const resources = (doc['serviceResources'] ?? []) as { id: number; serviceName?: string; resourceElements: Record<string, { values: string[] }> }[];
  const map = (doc['resourceToTagIds'] ?? {}) as Record<string, number[]>;
  const same = (r: (typeof resources)[number]) =>
    Object.keys(r.resourceElements).length === 3 &&
    r.resourceElements['database']?.values.join() === c.database &&
    r.resourceElements['table']?.values.join() === c.table &&
    r.resourceElements['column']?.values.join() === c.column;
  let resource = resources.find(same);
  let tagId = Object.entries(tags).find(([, t]) => t.type === tag && Object.keys(t.attributes ?? {}).length === 0)?.[0];
  if (add) {
    if (!resource) {
      resource = {
        id: Math.max(0, ...resources.map((r) => Number(r.id))) + 1,
        serviceName,
        resourceElements: { database: { values: [c.database] }, table: { values: [c.table] }, column: { values: [c.column] } },
      };
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
  doc['serviceName'] = serviceName;
  doc['tags'] = tags;
  doc['serviceResources'] = resources;
  doc['resourceToTagIds'] = map;
  doc['tagVersion'] = ((doc['tagVersion'] as number | undefined) ?? 0) + 1;
  doc['tagUpdateTime'] = Date.now();
  return doc;
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
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(withColumnTag(doc, this.serviceName, c, tag, add), null, 2));
    await rename(tmp, this.file);
  }
}

/**
 * Ranger Admin's tag store: the service's tags read from the secure download,
 * changed, and imported back whole (PUT /service/tags/importservicetags with
 * op `replace`), as a Ranger admin account.
 */
export class RangerAdminTagProjection implements TagProjection {
  constructor(private readonly o: { url: string; serviceName: string; username: string; password: string; timeoutMs: number }) {}

  describe(): string {
    return `Ranger Admin's tags of ${this.o.serviceName} at ${this.o.url}`;
  }

  private async call(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
    const res = await fetch(new URL(path, this.o.url), {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(`${this.o.username}:${this.o.password}`).toString('base64')}`,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json', 'X-XSRF-HEADER': 'lakegate' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(this.o.timeoutMs),
    });
    return { status: res.status, text: await res.text() };
  }

  async project(c: { database: string; table: string; column: string }, tag: string, add: boolean): Promise<void> {
    const svc = encodeURIComponent(this.o.serviceName);
    const got = await this.call('GET', `/service/tags/secure/download/${svc}`);
    if (got.status !== 200) throw new Error(`Ranger Admin answered ${got.status} to the tag download`);
    const doc = withColumnTag(JSON.parse(got.text) as Json, this.o.serviceName, c, tag, add);
    const put = await this.call('PUT', '/service/tags/importservicetags/', { ...doc, op: 'replace' });
    if (put.status !== 204 && put.status !== 200) throw new Error(`Ranger Admin answered ${put.status} to the tag import`);
  }
}
