/**
 * The import structure of the rooms, read from the sources with TypeScript's
 * own pre-processor (ts.preProcessFile: import and export-from declarations,
 * type-only ones included, and import() with a string literal), and the two
 * checks made of it: no circle among files, and no import against the room
 * order. Kept apart from its test so that the checks can be proven on a graph
 * made up for the purpose (imports.test.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** file (relative to the root, `/`-separated) → the files it imports, in source order */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** One import from a file to another that the room rules refuse. */
export interface RoomViolation {
  from: string;
  to: string;
  fromRoom: string;
  toRoom: string;
}

/** The top-level folder a file belongs to. */
export const roomOf = (file: string): string => file.split('/')[0]!;

/** Every specifier a source imports or re-exports, as TypeScript reads them. */
export function importSpecifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** A relative specifier as the file it names (NodeNext: `./x.js` is `./x.ts`); null when no such file exists. */
export function resolveRelative(root: string, from: string, specifier: string): string | null {
  const base = path.join(path.dirname(path.join(root, from)), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, path.join(base, 'index.ts')];
  for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return path.relative(root, c).split(path.sep).join('/');
  return null;
}

/** The non-test TypeScript sources under each of `rooms`. */
export function sourceFiles(root: string, rooms: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  for (const room of rooms) if (existsSync(path.join(root, room))) walk(room);
  return out.sort();
}

/**
 * The graph of the files' relative imports (packages and node: modules are
 * not files of ours). A relative specifier that names no file is returned in
 * `unresolved`: the reader, not the code, would be wrong.
 */
export function readImportGraph(root: string, files: readonly string[]): { graph: ImportGraph; unresolved: string[] } {
  const graph = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of files) {
    const targets: string[] = [];
    for (const spec of importSpecifiers(readFileSync(path.join(root, file), 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = resolveRelative(root, file, spec);
      if (target === null) unresolved.push(`${file} → ${spec}`);
      else if (!targets.includes(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return { graph, unresolved };
}

/**
 * The circles of the graph: its strongly connected components of more than
 * one file, and files importing themselves (Tarjan's algorithm), each sorted.
 */
export function circles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  // Iterative, so that a long chain of imports cannot exhaust the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const to = edges[top.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.node);
      if (component.length > 1 || edges.includes(top.node)) found.push(component.sort());
    }
  }
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * Imports across rooms that `allowed` does not list (room → the rooms it may
 * import). An import within a room is always allowed; a room missing from
 * `allowed` may import nothing outside itself.
 */
export function roomViolations(graph: ImportGraph, allowed: Readonly<Record<string, readonly string[]>>): RoomViolation[] {
  const out: RoomViolation[] = [];
  for (const [from, targets] of graph) {
    const fromRoom = roomOf(from);
    for (const to of targets) {
      const toRoom = roomOf(to);
      if (toRoom === fromRoom) continue;
      if ((Object.hasOwn(allowed, fromRoom) ? allowed[fromRoom]! : []).includes(toRoom)) continue;
      out.push({ from, to, fromRoom, toRoom });
    }
  }
  return out;
}
