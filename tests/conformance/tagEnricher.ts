/**
 * Drives Ranger's TestRangerTagEnricher fixture (contextenricher/test_tagenricher_hive.json):
 * the fixture's service resources and tags go into a TagStore; each test asks
 * which tags attach to a resource for an access type (`""` is `_any`, which also
 * attaches tags found below the resource). Compared as the Java test does: the
 * sorted list of the attached tags' types (equal tags once, different ones each).
 */
import { ServiceDefSchema, parseServiceTags } from '../../policy/ranger/model.js';
import { TagStore } from '../../policy/ranger/tags.js';
import type { CaseResult, Driver, FileResult } from './harness.js';
import { readFixture } from './harness.js';
import { skipReason } from './skips.js';

type Json = Record<string, unknown>;

const FILE = 'contextenricher/test_tagenricher_hive.json';

function runFile(file: string): FileResult {
  const raw = readFixture(file) as Json;
  const def = ServiceDefSchema.parse(raw.serviceDef);
  const serviceTags = parseServiceTags(
    {
      serviceName: raw.serviceName,
      tagDefinitions: raw.tagDefinitions,
      tags: raw.tags,
      serviceResources: raw.serviceResources,
      resourceToTagIds: raw.resourceToTagIds,
    },
    file,
  );
  const store = new TagStore(def, serviceTags);
  const cases: CaseResult[] = [];
  for (const t of (raw.tests as Json[] | undefined) ?? []) {
    const name = String(t.name);
    const reason = skipReason(file, name) ?? skipReason(file, '*');
    if (reason) {
      cases.push({ name, status: 'skip', detail: reason });
      continue;
    }
    const resource = ((t.resource as Json | undefined)?.elements ?? {}) as Record<string, string>;
    const accessType = String(t.accessType ?? '');
    const isAny = accessType === '' || accessType === '_any';
    // Ranger keeps a request's tags in a Set: the same tag reached through several
    // tagged resources with the same match type counts once.
    const distinct = new Map<string, string>();
    for (const x of store.tagsFor(resource, isAny, 'testUser')) distinct.set(JSON.stringify([x.type, Object.entries(x.attributes).sort(), x.matchType]), x.type);
    const got = [...distinct.values()].sort();
    const want = ((t.result as Json[] | undefined) ?? []).map((x) => String(x.type)).sort();
    cases.push(
      JSON.stringify(got) === JSON.stringify(want) ? { name, status: 'pass' } : { name, status: 'fail', detail: `expected ${JSON.stringify(want)} got ${JSON.stringify(got)}` },
    );
  }
  return { file, cases };
}

export const tagEnricherDriver: Driver = {
  name: 'tag enricher (TestRangerTagEnricher)',
  run: () => [runFile(FILE)],
};
