/** Turning a (rewritten) parse tree back into SQL text for DuckDB. */
import { deparseSync } from 'pgsql-deparser';
import type { PgNode } from './walk.js';

export function deparse(node: PgNode): string {
  // pgsql-deparser's types are the @pgsql/types Node union; our tree is the same JSON.
  return deparseSync(node as Parameters<typeof deparseSync>[0], { pretty: false });
}
