/**
 * The import structure the design draws (shared/design.md, Layout): imports
 * flow one way, bin → server → {protocol, catalog, pgcatalog, policy} → sql,
 * and no two files import each other, however indirectly. Read from every
 * non-test source of the rooms; type-only imports count (they tie the rooms
 * as much as values do). The checks are proven able to fail on a made-up tree
 * first.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { circles, readImportGraph, roomViolations, sourceFiles, type ImportGraph, type RoomViolation } from './importGraph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const ROOMS = ['bin', 'server', 'protocol', 'catalog', 'pgcatalog', 'policy', 'sql'] as const;

/** Each room and the rooms it may import. */
const ALLOWED: Readonly<Record<(typeof ROOMS)[number], readonly string[]>> = {
  bin: ['server', 'protocol', 'catalog', 'pgcatalog', 'policy', 'sql'],
  // server/ is where the rooms beside each other meet (the catalog gate's authorizer is wired there).
  server: ['protocol', 'catalog', 'pgcatalog', 'policy', 'sql'],
  // the wire protocol knows nothing of SQL, catalogs or policies
  protocol: [],
  catalog: ['sql'],
  // pgcatalog/ declares what it reads of a catalog (ListedCatalog) rather than importing catalog/
  pgcatalog: ['sql'],
  policy: ['sql'],
  sql: [],
};

/**
 * Imports against the room order that are known and on their way out, as exact
 * file pairs. Each needs its reason; a pair that no longer occurs fails the
 * test, so the list cannot outlive its reasons.
 */
const KNOWN_VIOLATIONS: readonly { from: string; to: string; why: string }[] = [];

const pair = (v: { from: string; to: string }) => `${v.from} → ${v.to}`;

function unexpected(violations: readonly RoomViolation[]): string[] {
  const known = new Set(KNOWN_VIOLATIONS.map(pair));
  return violations.filter((v) => !known.has(pair(v))).map((v) => `${v.fromRoom} may not import ${v.toRoom}: ${pair(v)}`);
}

describe('the checks themselves (a made-up tree)', () => {
  let dir: string;
  let graph: ImportGraph;
  let unresolved: string[];

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'lakegate-imports-'));
    const files: Record<string, string> = {
      // a circle through a type-only import and an export-from
      'upper/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'upper/b.ts': "import type { C } from './c.js';\nexport const b: C = 1;\n",
      'upper/c.ts': "export type { A } from './d.js';\nexport type C = number;\n",
      'upper/d.ts': "import { a } from './a.js';\nexport type A = typeof a;\n",
      // lower importing upper, through a dynamic import
      'lower/e.ts': "export const e = async () => (await import('../upper/a.js')).a;\n",
      // allowed: upper importing lower; a package; a test file is not read
      'upper/f.ts': "import { g } from '../lower/g.js';\nimport ts from 'typescript';\nexport const f = [g, ts];\n",
      'lower/g.ts': 'export const g = 1;\n',
      'lower/g.test.ts': "import { a } from '../upper/a.js';\n",
      // a file importing itself
      'lower/h.ts': "export * from './h.js';\n",
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    ({ graph, unresolved } = readImportGraph(dir, sourceFiles(dir, ['upper', 'lower'])));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('every kind of import is read and resolved to its file; test files are not read', () => {
    expect(unresolved).toEqual([]);
    expect([...graph.keys()].sort()).toEqual(['lower/e.ts', 'lower/g.ts', 'lower/h.ts', 'upper/a.ts', 'upper/b.ts', 'upper/c.ts', 'upper/d.ts', 'upper/f.ts']);
    expect(graph.get('upper/b.ts')).toEqual(['upper/c.ts']);
    expect(graph.get('upper/c.ts')).toEqual(['upper/d.ts']);
    expect(graph.get('lower/e.ts')).toEqual(['upper/a.ts']);
  });

  test('a circle is found with every file in it, however long; a self-import too', () => {
    expect(circles(graph)).toEqual([['lower/h.ts'], ['upper/a.ts', 'upper/b.ts', 'upper/c.ts', 'upper/d.ts']]);
    expect(circles(new Map([['x', ['y']], ['y', []]]))).toEqual([]);
  });

  test('an import from a lower room to a higher one is found; downward ones are not', () => {
    expect(roomViolations(graph, { upper: ['lower'], lower: [] })).toEqual([{ from: 'lower/e.ts', to: 'upper/a.ts', fromRoom: 'lower', toRoom: 'upper' }]);
  });

  test('an import that names no file is reported, not skipped', () => {
    writeFileSync(path.join(dir, 'lower/broken.ts'), "import { x } from './missing.js';\n");
    expect(readImportGraph(dir, ['lower/broken.ts']).unresolved).toEqual(['lower/broken.ts → ./missing.js']);
  });
});

describe('the rooms', () => {
  const files = sourceFiles(ROOT, ROOMS);
  const { graph, unresolved } = readImportGraph(ROOT, files);

  test('every room is read, and every relative import names a file', () => {
    for (const room of ROOMS) expect(files.some((f) => f.startsWith(`${room}/`))).toBe(true);
    expect(unresolved).toEqual([]);
  });

  test('no circle among files', () => {
    expect(circles(graph).map((c) => c.join(' ⇄ '))).toEqual([]);
  });

  test('no import against the room order', () => {
    expect(unexpected(roomViolations(graph, ALLOWED))).toEqual([]);
  });

  test('every known violation still occurs (remove it once it is gone)', () => {
    const occurring = new Set(roomViolations(graph, ALLOWED).map(pair));
    expect(KNOWN_VIOLATIONS.filter((k) => !occurring.has(pair(k))).map((k) => `${pair(k)} (${k.why})`)).toEqual([]);
  });
});
