import { PolicyResourceIndex } from './resourceIndex.js';
import { createPolicyResourcesMatcher } from './policyResourcesMatcher.js';
import type { MatchContext, PolicyResourceLike, PolicyResourcesLike, RequestResource, ServiceDefLike } from './types.js';
import { mulberry32 } from '../../../tests/support/random.js';

const hive: ServiceDefLike = {
  resources: [
    { name: 'database', level: 1 },
    { name: 'table', level: 2, parent: 'database' },
    { name: 'udf', level: 2, parent: 'database' },
    { name: 'column', level: 3, parent: 'table' },
    { name: 'url', level: 1, matcher: 'org.apache.ranger.plugin.resourcematcher.RangerURLResourceMatcher' },
  ],
};

const hdfs: ServiceDefLike = {
  resources: [
    {
      name: 'path',
      level: 1,
      matcher: 'org.apache.ranger.plugin.resourcematcher.RangerPathResourceMatcher',
      matcherOptions: { wildCard: true, ignoreCase: false },
    },
  ],
};

/** A small deterministic PRNG so failures reproduce. */
const rng = mulberry32;

const ATOMS = ['a', 'b', 'A', 'ab', 'Ba', 'x'];
const WILD = ['*', '?', 'a*', '*b', 'a*b', '?a', '*', '**', 'A?', '{USER}', '{USER}*', '${{dept}}'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function randomValue(r: () => number): string {
  return r() < 0.6 ? pick(r, ATOMS) : pick(r, WILD);
}

function randomResource(r: () => number): PolicyResourceLike {
  const n = 1 + Math.floor(r() * 2);
  const values = Array.from({ length: n }, () => randomValue(r));
  return { values, isExcludes: r() < 0.15 };
}

const SHAPES: string[][] = [[], ['database'], ['database', 'table'], ['database', 'table', 'column'], ['database', 'udf'], ['url'], ['table'], ['database', 'column']];

function randomPolicy(r: () => number): PolicyResourcesLike {
  const shape = pick(r, SHAPES.slice(1));
  return Object.fromEntries(shape.map((k) => [k, randomResource(r)]));
}

function randomRequestValue(r: () => number): string | string[] | null {
  const x = r();
  if (x < 0.08) return '*';
  if (x < 0.12) return '';
  if (x < 0.16) return null;
  if (x < 0.26) return [pick(r, ATOMS), pick(r, ATOMS)];
  return r() < 0.8 ? pick(r, ATOMS) + (r() < 0.3 ? pick(r, ATOMS) : '') : pick(r, ['*b', 'a?', 'eng', 'admin']);
}

function randomRequest(r: () => number): RequestResource {
  const shape = pick(r, SHAPES);
  return Object.fromEntries(shape.map((k) => [k, randomRequestValue(r)]));
}

describe('PolicyResourceIndex', () => {
  test('candidates are a superset of the policies that match (randomized, against brute force)', () => {
    const r = rng(42);
    let matches = 0;
    let candidateCount = 0;
    let pairs = 0;
    for (let round = 0; round < 30; round++) {
      const index = new PolicyResourceIndex<number>(hive);
      const matchers = [];
      for (let i = 0; i < 60; i++) {
        const maps = r() < 0.15 ? [randomPolicy(r), randomPolicy(r)] : [randomPolicy(r)];
        index.add(maps, i);
        matchers.push(createPolicyResourcesMatcher(hive, maps));
      }
      for (let q = 0; q < 60; q++) {
        const request = randomRequest(r);
        const ctx: MatchContext = { tokens: { USER: pick(r, ATOMS) }, resolveExpression: (e) => (e === 'dept' ? 'eng' : undefined) };
        const candidates = new Set(index.candidates(request, ctx));
        candidateCount += candidates.size;
        pairs += matchers.length;
        matchers.forEach((m, i) => {
          if (m.getMatchType(request, ctx) === 'NONE') return;
          matches++;
          if (!candidates.has(i)) throw new Error(`policy ${i} matches ${JSON.stringify(request)} but is not a candidate`);
        });
      }
    }
    // Not vacuous: many true matches, and the index still filters out most pairs.
    expect(matches).toBeGreaterThan(1000);
    expect(candidateCount / pairs).toBeLessThan(0.6);
  });

  test('recursive paths and case-sensitive matchers (hdfs) stay a superset', () => {
    const r = rng(7);
    const parts = ['a', 'B', 'c', 'ab'];
    const path = () => '/' + Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(r, parts)).join('/') + (r() < 0.2 ? '/' : '');
    const index = new PolicyResourceIndex<number>(hdfs);
    const matchers = [];
    for (let i = 0; i < 200; i++) {
      const v = r() < 0.2 ? path() + '*' : r() < 0.1 ? '/*/' + pick(r, parts) : path();
      const map = { path: { values: [v], isRecursive: r() < 0.6, isExcludes: r() < 0.05 } };
      index.add(map, i);
      matchers.push(createPolicyResourcesMatcher(hdfs, [map]));
    }
    for (let q = 0; q < 300; q++) {
      const request = { path: path() };
      const candidates = new Set(index.candidates(request));
      matchers.forEach((m, i) => {
        if (m.getMatchType(request) !== 'NONE' && !candidates.has(i)) throw new Error(`policy ${i} missed for ${request.path}`);
      });
    }
  });

  test('10,000 exact-name policies give small candidate sets for exact-name requests', () => {
    const index = new PolicyResourceIndex<string>(hive);
    for (let i = 0; i < 10_000; i++)
      index.add({ database: { values: [`db${i % 100}`] }, table: { values: [`t${i}`] }, column: { values: ['*'] } }, `p${i}`);
    index.add({ database: { values: ['*'] }, table: { values: ['*'] } }, 'all-tables');
    index.add({ database: { values: ['db7'] }, table: { values: ['t1*'] } }, 'prefix');
    index.add({ database: { values: ['db7'] }, table: { values: ['tmp'], isExcludes: true } }, 'excludes');
    index.add({ url: { values: ['s3://bucket/*'] } }, 'url');

    const start = process.hrtime.bigint();
    const c = index.candidates({ database: 'db7', table: 't107', column: 'ssn' });
    const micros = Number(process.hrtime.bigint() - start) / 1000;
    expect(c.sort()).toEqual(['all-tables', 'excludes', 'p107', 'prefix'].sort());
    expect(index.candidates({ database: 'DB7', table: 'T5007' })).toEqual(expect.arrayContaining(['p5007', 'all-tables']));
    expect(index.candidates({ database: 'db7', table: 'T5007' }).length).toBeLessThan(10);
    expect(micros).toBeLessThan(50_000); // generous: shared CI cores; typically well under 1 ms
  });

  test('a request without concrete values returns every entry', () => {
    const index = new PolicyResourceIndex<number>(hive);
    index.add({ database: { values: ['a'] } }, 1);
    index.add({ url: { values: ['x'] } }, 2);
    expect(index.candidates({})).toEqual([1, 2]);
    expect(index.candidates({ database: '*' })).toEqual([1, 2]);
  });

  test('an all-values level admits policies that stop above the concrete levels', () => {
    const index = new PolicyResourceIndex<string>(hive);
    index.add({ database: { values: ['*'] } }, 'db-any');
    index.add({ url: { values: ['x'] } }, 'url');
    expect(index.candidates({ database: '*', table: 't' })).toEqual(['db-any']);
  });
});
